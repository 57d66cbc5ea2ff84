#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The process's arguments as the bytes they are: Swift reads them with every byte that is not
/// UTF-8 (Latin-1 text, a lone surrogate written as bytes) replaced by U+FFFD, which would then
/// be searched for, written into a store or named as a file in silence. An argument that is not
/// UTF-8 is an error naming it and the column, as in data files and scripts.
enum ArgumentBytes {
    /// The first argument (after the program's name) that is not UTF-8: its 1-based number,
    /// its text with the bytes that are not shown as `\xFF`, the 1-based column (in characters)
    /// of the first such byte, and the byte.
    struct NotText: Error, CustomStringConvertible {
        let number: Int
        let shown: String
        let column: Int
        let byte: UInt8

        var description: String {
            "argument \(number) ('\(shown)'), column \(column): the text is not UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))); arguments must be UTF-8"
        }
    }

    /// Checks every argument of the process.
    static func check() throws(NotText) {
        let count = Int(CommandLine.argc)
        let arguments = CommandLine.unsafeArgv
        guard count > 1 else { return }
        for number in 1..<count {
            guard let pointer = arguments[number] else { continue }
            try check(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)), number: number)
        }
    }

    /// Checks one argument's bytes.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) throws(NotText) {
        guard String(validating: bytes, as: UTF8.self) == nil else { return }
        do throws(ScriptLines.NotText) {
            _ = try ScriptLines.text(of: ArraySlice(bytes))
        } catch {
            throw NotText(number: number, shown: shown(bytes), column: error.column, byte: error.byte)
        }
    }

    /// The argument with each byte that is not part of a UTF-8 sequence written `\xFF`; a
    /// long one cut after ``shownLength`` bytes.
    static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = ""
        var rest = ArraySlice(bytes).prefix(shownLength)
        while !rest.isEmpty {
            do throws(ScriptLines.NotText) {
                text += try ScriptLines.text(of: rest)
                rest = []
            } catch {
                // The valid part before the byte, then the byte.
                var decoder = UTF8()
                var iterator = rest.makeIterator()
                var valid = rest.startIndex
                while case .scalarValue(let scalar) = decoder.decode(&iterator) { valid += UTF8.width(scalar) }
                text += String(decoding: rest[rest.startIndex..<valid], as: UTF8.self)
                text += "\\x" + String(rest[valid], radix: 16, uppercase: true)
                rest = rest[(valid + 1)...]
            }
        }
        return bytes.count > shownLength ? text + "…" : text
    }

    /// How many bytes of an argument an error shows.
    static let shownLength = 80
}
