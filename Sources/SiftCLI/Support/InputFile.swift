#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

/// The input of `sift filter`: a file, or standard input when none is given (or `-`).
struct InputFile {
    let descriptor: Int32
    /// For messages: the path as given, or `<stdin>`.
    let name: String
    private let closesDescriptor: Bool

    static func open(_ path: String?) throws -> InputFile {
        guard let path, path != "-" else { return InputFile(descriptor: STDIN_FILENO, name: "<stdin>", closesDescriptor: false) }
        let descriptor = openForReading(path)
        guard descriptor >= 0 else {
            Output.error("error: cannot open '\(path)': \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        return InputFile(descriptor: descriptor, name: path, closesDescriptor: true)
    }

    func close() {
        if closesDescriptor { closeDescriptor(descriptor) }
    }
}

// The system calls, outside the type (whose `open` and `close` would shadow them).
private func openForReading(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
