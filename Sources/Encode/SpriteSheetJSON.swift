// SPDX-License-Identifier: GPL-3.0-or-later

internal import Raster
internal import Spec

/// The sprite sheet's JSON data file that `SpriteSheetBuilder` puts in `SpriteSheet.json`: the
/// default data format (`SheetDataFormat.defaultFormat`, Aseprite json-hash with frame names
/// "0", "1", …) of the one-page sheet, written by `SheetData.files`.
enum SpriteSheetJSON {
    /// The whole document for laid-out `frames` on `sheet`.
    static func document(frames: [SheetFrame], sheet: RGBAImage, options: SpriteSheetOptions) -> JSONText {
        let format = SheetDataFormat.defaultFormat
        let durations = frames.map(\.duration)
        let animation = SheetAnimation(
            title: options.name, durations: durations, frameRate: options.frameRate, scale: options.scale,
            app: options.app, version: options.version)
        let names =
            (try? SheetData.frameNames(
                template: format.defaultFrameNameTemplate, title: options.name, tags: animation.tags,
                count: frames.count)) ?? frames.indices.map(String.init)
        let input = SheetDataInput(
            pages: [SheetPage(imageName: options.imageName, width: sheet.width, height: sheet.height)],
            frames: frames, names: names, animation: animation)
        return SheetDataJSON.perPage(format, page: 0, of: input)
    }
}
