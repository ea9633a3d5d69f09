// SPDX-License-Identifier: GPL-3.0-or-later

/// Colour indices for one frame, row-major over the full canvas.
struct IndexedFrame {
    /// `width·height` palette indices.
    var indices: [UInt8]
}
