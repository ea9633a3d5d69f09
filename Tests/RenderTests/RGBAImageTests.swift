import Raster
import Testing

@testable import Render

@Test func rgbaImageRejectsWrongByteCount() {
    #expect(RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 15)) == nil)
    let image = RGBAImage(width: 2, height: 1, pixels: [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(image?[1, 0].r == 5)
    #expect(image?[1, 0].a == 8)
}
