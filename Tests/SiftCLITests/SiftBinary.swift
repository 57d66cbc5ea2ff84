import Foundation
import Testing

/// Runs the built `sift` binary (it sits beside the test bundle in the build folder).
struct SiftBinary {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static let url: URL = {
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return testBundle.deletingLastPathComponent().appendingPathComponent("sift")
    }()

    static func run(_ arguments: String..., stdin: String? = nil) throws -> Result {
        try run(arguments: arguments, stdin: stdin)
    }

    static func run(arguments: [String], stdin: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
