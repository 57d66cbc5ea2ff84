import Foundation
import Testing

/// The command line reaches store features by capability (`SiftStore`'s protocols:
/// `InterruptibleFetches`, `AccessReportingStore`, `WriteLockingStore`, `IntrospectedModelStore`,
/// `InMemoryFetchingStore`), never by casting to a store kind, so a new kind of store gets each
/// feature by adopting its protocol (issue 31). Opening or making a store of a kind by name is
/// fine; asking which kind an open store is, is not.
@Suite struct StoreCapabilityTests {
    static let concreteStores = ["SQLiteStore", "PostgreSQLStore", "AtomicStore"]

    /// `as? X`, `as! X`, `as X` (in a `case let`) and `is X` of a concrete store type.
    static func downcasts(in text: String) -> [String] {
        let names = concreteStores.joined(separator: "|")
        let pattern = try! NSRegularExpression(pattern: #"(\bas[?!]?|\bis)\s+(\#(names))\b"#)
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") { continue }
            let text = String(line)
            if pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                found.append("\(number + 1): \(trimmed)")
            }
        }
        return found
    }

    @Test func theDetectorFindsEachFormOfDowncast() {
        #expect(Self.downcasts(in: "let s = store as? SQLiteStore").count == 1)
        #expect(Self.downcasts(in: "case let s as PostgreSQLStore: x").count == 1)
        #expect(Self.downcasts(in: "if store is AtomicStore {}").count == 1)
        #expect(Self.downcasts(in: "let s = store as! AtomicStore").count == 1)
        #expect(Self.downcasts(in: "let s = try SQLiteStore.open(at: url)\n// as? SQLiteStore").isEmpty)
        #expect(Self.downcasts(in: "store as? any InterruptibleFetches").isEmpty)
    }

    @Test func theCommandLineHasNoDowncastToAStoreKind() throws {
        let directory = DocumentationSnippetTests.root.appendingPathComponent("Sources/SiftCLI")
        let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
        var found: [String] = []
        var read = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            read += 1
            for hit in Self.downcasts(in: try String(contentsOf: file, encoding: .utf8)) {
                found.append("\(file.lastPathComponent):\(hit)")
            }
        }
        #expect(read > 50, "the CLI's sources were read")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
