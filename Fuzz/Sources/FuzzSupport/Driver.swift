import Foundation
import Sift

/// libFuzzer's entry points, shared by every harness.
///
/// SwiftPM links an executable target with `main` aliased to `<module>_main`, so each harness
/// defines that function (`fuzz_parse_main` for `fuzz-parse`) and hands over to libFuzzer's
/// driver here; libFuzzer's own `main` is never reached. The harness's
/// `LLVMFuzzerTestOneInput` is what libFuzzer calls for each input.
public enum FuzzDriver {
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs libFuzzer with the command line (`-runs=N`, corpus directories, files to replay).
    public static func run(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                           _ testOneInput: TestOneInput) -> CInt {
        var argc = argc
        var argv = argv
        return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
    }

    /// The input as a buffer (libFuzzer may pass a null pointer for the empty input).
    public static func buffer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: size == 0 ? nil : data, count: size)
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzDriver.TestOneInput
) -> CInt

/// A property a harness checks that does not hold: the message goes to standard error and the
/// process traps, which libFuzzer reports as a crash and saves the input.
public func fuzzFailure(_ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    let text = "\nFUZZ CHECK FAILED (\(file):\(line)): \(message())\n"
    FileHandle.standardError.write(Data(text.utf8))
    fatalError("fuzz check failed", file: file, line: line)
}

/// Checks a property of the code under test (see ``fuzzFailure(_:file:line:)``).
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fuzzFailure(message(), file: file, line: line) }
}

/// Text for messages: the input with control characters escaped, cut to a readable length.
public func quoted(_ text: String, limit: Int = 400) -> String {
    // The language's own string literal (CanonicalPrinter), cut after `limit` scalars.
    let scalars = text.unicodeScalars
    guard scalars.count > limit else { return CanonicalPrinter.formatString(text) }
    var cut = String.UnicodeScalarView()
    cut.append(contentsOf: scalars.prefix(limit))
    return String(CanonicalPrinter.formatString(String(cut)).dropLast()) + "…\""
}
