// SPDX-License-Identifier: GPL-3.0-or-later

/// How `SpriteSheetBuilder` arranges cells.
public enum SheetLayout: Equatable, Sendable, CaseIterable {
    /// Rows of `columns` cells (default `ceil(sqrt(N))`), every cell the size of the largest
    /// (trimmed) frame, frames at their cell's top-left corner.
    case grid
    /// One row, left to right; with trimming each cell is as wide as its frame.
    case horizontal
    /// One column, top to bottom; with trimming each cell is as tall as its frame.
    case vertical
    /// Cells of their own sizes packed by MaxRects (`SheetPacker`) into the smallest page found,
    /// never larger in area than `.grid` of the same cells.
    case packed
}
