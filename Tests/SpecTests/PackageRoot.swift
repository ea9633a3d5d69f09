import Foundation

/// The package's root directory, found from this source file's path (tests read `presets/`).
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()
