import Foundation

@testable import Spec

/// The package's root directory, found from this file's path (tests read presets/).
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// Access to the internal timing-function parser from Timeline's tests.
enum TimingFunctionSyntaxProbe {
    static func parse(_ text: String) -> Result<TimingFunction, SyntaxProblem> { TimingFunctionSyntax.parse(text) }
}
