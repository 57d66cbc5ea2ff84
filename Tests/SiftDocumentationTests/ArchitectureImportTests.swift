import Foundation
import Testing

/// docs/ARCHITECTURE.md's import table (between `<!-- imports:begin -->` and
/// `<!-- imports:end -->`) names, for each Swift module of `Sources/`, the modules its files
/// import; this suite compares it with the sources, so a new import between layers shows up as
/// a failing test until the map (and the layering) is looked at.
@Suite struct ArchitectureImportTests {
    /// Modules of the platform and the toolchain, left out of the table.
    static let platformModules: Set<String> = ["Foundation", "FoundationEssentials", "Glibc", "Darwin", "Musl",
                                               "Dispatch", "Synchronization", "Swift", "_Concurrency"]

    /// The modules one Swift file imports (`import X`, `@_exported import X`,
    /// `import struct X.Y`, indented under `#if`), platform modules left out.
    static func imports(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(
            pattern: #"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|typealias|func|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#,
            options: [.anchorsMatchLines])
        var found: Set<String> = []
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range(at: 1), in: text) else { continue }
            found.insert(String(text[range]))
        }
        return found.subtracting(platformModules)
    }

    /// The table between the markers: module → the modules it imports.
    static func table(in markdown: String) throws -> [String: Set<String>] {
        let begin = try #require(markdown.range(of: "<!-- imports:begin -->"), "the page has the begin marker")
        let end = try #require(markdown.range(of: "<!-- imports:end -->"), "the page has the end marker")
        var table: [String: Set<String>] = [:]
        for line in markdown[begin.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            // | `Module` | `A`, `B` |  →  ["", "`Module`", "`A`, `B`", ""]
            guard cells.count == 4, cells[1].hasPrefix("`") else { continue }
            let names = { (cell: String) in Set(cell.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }.filter { !$0.isEmpty }) }
            table[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = names(cells[2])
        }
        return table
    }

    /// The modules of `Sources/` written in Swift, each with what its files import.
    static func sourceImports() throws -> [String: Set<String>] {
        let sources = DocumentationSnippetTests.root.appendingPathComponent("Sources")
        var modules: [String: Set<String>] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            guard let files = FileManager.default.enumerator(at: sources.appendingPathComponent(name), includingPropertiesForKeys: nil) else { continue }
            var imports: Set<String>?
            for case let file as URL in files where file.pathExtension == "swift" {
                imports = (imports ?? []).union(Self.imports(in: try String(contentsOf: file, encoding: .utf8)))
            }
            if let imports { modules[name] = imports }
        }
        return modules
    }

    @Test func theImportReaderFindsEachForm() {
        #expect(Self.imports(in: "import SiftStore\n@_exported import SiftSQL\n#if canImport(Glibc)\n    import Glibc\n#endif\n")
                == ["SiftStore", "SiftSQL"])
        #expect(Self.imports(in: "@_spi(_Unicode) import Swift\nimport struct SiftSQLite.SQLiteValue\n") == ["SiftSQLite"])
        #expect(Self.imports(in: "// import SiftCLI\n/// see `import Sift`\nlet important = 1\n").isEmpty)
    }

    @Test func theTableReaderReadsRowsAndSeesADifference() throws {
        let page = """
            <!-- imports:begin -->
            | Module | Imports |
            |---|---|
            | `SiftStore` | `SiftEvaluation`, `SiftLanguage` |
            | `sift` | `SiftCLI` |
            <!-- imports:end -->
            """
        let table = try Self.table(in: page)
        #expect(table == ["SiftStore": ["SiftEvaluation", "SiftLanguage"], "sift": ["SiftCLI"]])
        #expect(table["SiftStore"] != Self.imports(in: "import SiftLanguage\nimport SiftEvaluation\nimport SiftSQL\n"))
    }

    /// Engine wrappers and their C modules: what the SQL tree and the compiler must not import.
    static let engineModules: Set<String> = ["SiftSQLite", "CSQLite", "SiftPostgreSQL", "CLibPQ"]

    /// The SQL tree, the compiler and the SQL stores' shared core know no engine: their bound
    /// values are `SQLValue`, and engines come in only through a store module.
    @Test(arguments: ["SiftSQL", "SiftSQLStore"])
    func aModuleAboveTheEnginesImportsNone(_ module: String) throws {
        let imports = try #require(try Self.sourceImports()[module], "\(module)'s sources were read")
        #expect(imports.contains("SiftStore"))
        #expect(imports.isDisjoint(with: Self.engineModules), "\(module) imports \(imports.intersection(Self.engineModules).sorted())")
        #expect(Self.imports(in: "import SiftSQLite\n").intersection(Self.engineModules) == ["SiftSQLite"])
    }

    /// A store imports its own engine's wrapper only, never the other store's nor the other
    /// engine's (`SiftSQLite`/`CSQLite` against `SiftPostgreSQL`/`CLibPQ`), in any file.
    @Test(arguments: [("SiftSQLiteStore", "SiftSQLite", ["SiftPostgreSQL", "CLibPQ", "SiftPostgreSQLStore"]),
                      ("SiftPostgreSQLStore", "SiftPostgreSQL", ["SiftSQLite", "CSQLite", "SiftSQLiteStore"])])
    func aStoreImportsItsOwnEngineOnly(_ module: String, _ engine: String, _ forbidden: [String]) throws {
        let imports = try #require(try Self.sourceImports()[module], "\(module)'s sources were read")
        #expect(imports.contains(engine))
        #expect(imports.contains("SiftSQLStore"))
        #expect(imports.isDisjoint(with: forbidden), "\(module) imports \(imports.intersection(forbidden).sorted())")
    }

    @Test func theTableMatchesTheSources() throws {
        let page = try String(contentsOf: DocumentationSnippetTests.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let table = try Self.table(in: page)
        let actual = try Self.sourceImports()
        #expect(actual.count >= 10, "the Swift modules of Sources/ were read")
        #expect(Set(table.keys) == Set(actual.keys), "every Swift module of Sources/ has a row, and every row a module")
        for (module, imports) in actual.sorted(by: { $0.key < $1.key }) {
            guard let listed = table[module] else { continue }
            #expect(listed == imports, """
                docs/ARCHITECTURE.md says \(module) imports \(listed.sorted()), its sources import \(imports.sorted()) \
                (not listed: \(imports.subtracting(listed).sorted()); listed, not imported: \(listed.subtracting(imports).sorted()))
                """)
        }
    }
}
