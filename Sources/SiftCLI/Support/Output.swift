import Foundation

/// Writing to standard output and standard error.
enum Output {
    static func write(_ text: String) {
        print(text)
    }

    static func error(_ text: String) {
        var line = text
        if !line.hasSuffix("\n") { line += "\n" }
        FileHandle.standardError.write(Data(line.utf8))
    }
}
