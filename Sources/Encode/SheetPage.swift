// SPDX-License-Identifier: GPL-3.0-or-later

/// One image of a sprite sheet as its data file names it: a one-page sheet has one, a multipack
/// (frames that do not fit in `--max-size`) has several. `SheetFrame.page` indexes this list.
public struct SheetPage: Equatable, Sendable {
    /// File name of the page image as the data file refers to it (`meta.image`), e.g.
    /// `"circular.png"` or `"circular-1.png"`.
    public var imageName: String
    /// Page width, pixels, ≥ 1.
    public var width: Int
    /// Page height, pixels, ≥ 1.
    public var height: Int

    /// A page with the given fields.
    public init(imageName: String, width: Int, height: Int) {
        self.imageName = imageName
        self.width = width
        self.height = height
    }
}
