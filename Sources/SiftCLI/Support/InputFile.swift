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
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            Output.error("error: cannot open '\(path)': \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        return InputFile(descriptor: descriptor, name: path, closesDescriptor: true)
    }

    func close() {
        if closesDescriptor { _ = Glibc.close(descriptor) }
    }
}
