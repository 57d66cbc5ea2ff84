import Foundation
import Sift
import Testing
@testable import SiftCLI

/// Tab completion (`Session.completions(for:cursor:)`) on the Notes model — Note (title,
/// contents, createdAt, updatedAt, category → Category, tags →> Tag), Category (name,
/// colorAsHex, notes →> Note), Tag (name, notes →> Note) — without a terminal: a line (the
/// cursor at its end) and what the word before the cursor may become.
@Suite struct CompletionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let line: String
        let expected: [String]
        /// `.use` this entity first.
        var using: String?
        var testDescription: String { "\(using.map { ".use \($0): " } ?? "")\(line)" }
    }

    static let cases: [Case] = [
        // Keywords and operators, in the case they are typed in.
        Case(line: "Note WHERE title BEGINS", expected: ["BEGINSWITH"]),
        Case(line: "Note WHERE title begins", expected: ["beginswith"]),
        Case(line: "Note WHERE title BEGINSWITH[c] \"a\" AN", expected: ["AND", "ANY", "ANYKEY"]),
        Case(line: "Note WHERE title MAT", expected: ["MATCHES"]),
        Case(line: "Note WHERE title == \"a\" SORT BY title DE", expected: ["DELETE", "DESC"]),
        Case(line: "Note WHERE co", expected: ["contains", "contents", "count"]),
        Case(line: "Note WHERE Co", expected: ["CONTAINS", "contents", "COUNT"]),
        // Entities after FETCH, FROM, COUNT, UPDATE, DELETE, and first.
        Case(line: "FETCH No", expected: ["Note"]),
        Case(line: "COUNT ", expected: ["Category", "Note", "Tag"]),
        Case(line: "fetch t", expected: ["Tag"]),
        Case(line: "SELECT title FROM No", expected: ["Note"]),
        Case(line: "UPDATE Ca", expected: ["Category"]),
        Case(line: "DELETE ", expected: ["Category", "FROM", "Note", "Tag"]),
        Case(line: "DELETE FROM T", expected: ["Tag"]),
        Case(line: "Ca", expected: ["Category"]),
        Case(line: "co", expected: ["count"]),
        Case(line: "", expected: ["Category", "COUNT", "DELETE", "FETCH", "Note", "SELECT", "Tag", "UPDATE"]),
        // Keys, and key paths after a dot following relationships.
        Case(line: "Note WHERE ti", expected: ["title"]),
        Case(line: "Note WHERE category.na", expected: ["category.name"]),
        Case(line: "Note WHERE category.", expected: ["category.colorAsHex", "category.name", "category.notes"]),
        Case(line: "Note WHERE category.notes.ti", expected: ["category.notes.title"]),
        Case(line: "Note WHERE ANY tags.na", expected: ["tags.name"]),
        Case(line: "Note WHERE tags.@c", expected: ["tags.@count"]),
        Case(line: "Note WHERE (title == 'x' OR category.na", expected: ["category.name"]),
        Case(line: "Note WHERE nothing.na", expected: []),
        Case(line: "Note WHERE title.le", expected: []),
        Case(line: "COUNT Category WHERE notes.cr", expected: ["notes.createdAt"]),
        Case(line: "SELECT category.na", expected: []),
        Case(line: "Note SORT BY cr", expected: ["createdAt"]),
        Case(line: "Note SET ti", expected: ["title"]),
        // Comparators after USING.
        Case(line: "Note SORT BY title USING localized", expected: [
            "localizedCaseInsensitiveCompare", "localizedCompare", "localizedStandardCompare",
        ]),
        Case(line: "Note SORT BY title USING c", expected: ["caseInsensitiveCompare", "compare"]),
        // Nothing inside a string, nor where a name or a number goes.
        Case(line: "Note WHERE title == \"BEG", expected: []),
        Case(line: "Note WHERE title == 'it''s cat", expected: []),
        Case(line: "Note LIMIT 1", expected: []),
        Case(line: "SELECT title AS ti", expected: []),
        // After .use: a bare predicate starts with a key or a keyword.
        Case(line: "ti", expected: ["title"], using: "Note"),
        Case(line: "tr", expected: ["true", "truepredicate"], using: "Note"),
        Case(line: "category.na", expected: ["category.name"], using: "Note"),
        Case(line: "title == 'a' AND na", expected: [], using: "Note"),
        Case(line: "na", expected: ["name"], using: "Tag"),
        // Dot commands and their arguments.
        Case(line: ".sch", expected: [".schema"]),
        Case(line: "  .op", expected: [".open"]),
        Case(line: ".use N", expected: ["Note"]),
        Case(line: ".schema ", expected: ["Category", "Note", "Tag"]),
        Case(line: ".ind", expected: [".indexes"]),
        Case(line: ".indexes N", expected: ["Note"]),
        Case(line: ".tables T", expected: ["Tag"]),
        Case(line: ".use Note ", expected: []),
        Case(line: ".mode js", expected: ["json", "jsonl"]),
        Case(line: ".headers o", expected: ["off", "on"]),
        Case(line: ".help op", expected: ["open"]),
        Case(line: ".nothing ", expected: []),
    ]

    /// A session on an empty in-memory store of the Notes model.
    static func session() throws -> Session {
        let model = try ModelFile.load(QueryCommandTests.examples.appendingPathComponent("Notes/model.json"))
        let session = Session(output: .collecting(into: { _ in }), source: .interactive)
        session.open(store: AtomicStore.inMemory(model: model), label: "notes")
        return session
    }

    @Test(arguments: cases)
    func completes(_ test: Case) throws {
        let session = try Self.session()
        if let entity = test.using { session.entity = entity }
        #expect(session.completions(for: test.line, cursor: test.line.count) == test.expected)
    }

    @Test func theWordReplacedEndsAtTheCursor() throws {
        let session = try Self.session()
        let line = "Note WHERE category.na == 'Work'"
        let completion = session.completion(for: line, cursor: "Note WHERE category.na".count)
        #expect(completion.candidates == ["category.name"])
        #expect(completion.wordLength == "category.na".count)
        // The entity may come after the cursor.
        #expect(session.completions(for: "SELECT category.na FROM Note", cursor: 18) == ["category.name"])
    }

    @Test func relationshipsAndFoldersGoOnWithoutASpace() throws {
        let session = try Self.session()
        let relationship = session.completion(for: "Note WHERE categ", cursor: 16)
        #expect(relationship.candidates == ["category"])
        #expect(relationship.goOn == ["category"])
        let attribute = session.completion(for: "Note WHERE category.na", cursor: 22)
        #expect(attribute.goOn.isEmpty)
        let path = session.completion(for: "Note WHERE category.no", cursor: 22)
        #expect(path.goOn == ["category.notes"])
    }

    @Test func aStatementOverSeveralLinesKeepsItsEntity() throws {
        let session = try Self.session()
        session.feed("Note WHERE")
        #expect(session.isContinuing)
        #expect(session.completions(for: "  category.na", cursor: 13) == ["category.name"])
        #expect(session.completions(for: "  ti", cursor: 4) == ["title"])
        // A dot at the start of a continuation line is not a dot command.
        #expect(session.completions(for: ".sch", cursor: 4) == [])
    }

    @Test func variables() throws {
        let session = try Self.session()
        session.variables["since"] = ("1", 1)
        session.variables["size"] = ("2", 2)
        session.variables["other"] = ("3", 3)
        #expect(session.completions(for: "Note WHERE createdAt > $si", cursor: 26) == ["$since", "$size"])
    }

    @Test func withoutAStoreOnlyTheLanguage() {
        let session = Session(output: .collecting(into: { _ in }), source: .interactive)
        #expect(session.completions(for: "FETCH ", cursor: 6) == [])
        #expect(session.completions(for: "Note WHERE title BEGINS", cursor: 23) == ["BEGINSWITH"])
        #expect(session.completions(for: "Note WHERE category.na", cursor: 22) == [])
    }

    @Test func fileNamesAfterFileCommands() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["notes.sqlite", "notes.json", "summary.sift", ".hidden"] {
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data()))
        }
        let session = try Self.session()
        let base = folder.path + "/"
        for command in [".open", ".read", ".import", ".output", ".once", ".request"] {
            #expect(session.completions(for: "\(command) \(base)no", cursor: command.count + base.count + 3) == [base + "notes.json", base + "notes.sqlite"])
        }
        let line = ".read \(base)s"
        let completion = session.completion(for: line, cursor: line.count)
        #expect(completion.candidates == [base + "scripts/", base + "summary.sift"])
        #expect(completion.goOn == [base + "scripts/"])
        #expect(completion.wordLength == base.count + 1)
        #expect(session.completions(for: ".open \(base)", cursor: base.count + 6).count == 4)
        #expect(session.completions(for: ".open \(base).h", cursor: base.count + 8) == [base + ".hidden"])
        #expect(session.completions(for: ".open \"\(base)notes.j", cursor: base.count + 14) == ["\"" + base + "notes.json"])
    }
}
