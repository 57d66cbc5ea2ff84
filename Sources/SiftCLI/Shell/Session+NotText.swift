import Foundation

extension Session {
    /// Input that is not UTF-8 ends it: the statement being written is dropped (the line might
    /// have gone on with it: `WHERE …` after `Note SET …`), and the error names the line and
    /// column (`<stdin>:LINE:COLUMN: error: …`).
    func reportNotText(_ error: ScriptLines.NotText) {
        let dropped = isContinuing ? "; the statement written before it was not run" : ""
        discardPending()
        failed()
        if let name = sourceName {
            output.message("\(name):\(error.line):\(error.column): error: \(error.message); the input was not read further\(dropped)")
        } else {
            output.message("error: \(error); the input was not read further\(dropped)")
        }
    }
}

/// A script file that is not UTF-8 (`sift run FILE`, `.read FILE`): none of it runs.
struct ScriptFileNotText: Error, CustomStringConvertible {
    let path: String
    let error: ScriptLines.NotText

    var description: String { "\(path): \(error); nothing in it was run" }

    /// As `sift run` prints it: `FILE:LINE:COLUMN: error: …`.
    var located: String { "\(path):\(error.line):\(error.column): error: \(error.message); nothing in it was run" }
}
