import Foundation
import Sift

/// What Tab may make of the word before the cursor: the candidates, each the whole word
/// (`category.na` → `category.name`), and how many characters before the cursor they replace.
struct Completion: Equatable {
    /// How long the word being completed is (in characters, ending at the cursor).
    let wordLength: Int
    /// What the word may become, sorted, without repeats; empty when nothing fits.
    let candidates: [String]
    /// The candidates that are usually followed by more of the same word rather than a space:
    /// a relationship (`category` → `category.name`), a folder (`Examples/`).
    var goOn: Set<String> = []

    static let none = Completion(wordLength: 0, candidates: [])
}

/// Tab completion from the open store's model and the language, knowing nothing of the
/// terminal (the line editor asks; the tests ask directly):
///
/// - dot command names (`.sch` → `.schema`); after `.open`, `.read`, `.import`, `.output`,
///   `.once`, `.request`, file names; after `.use`, `.schema`, `.describe`, `.tables`,
///   `.indexes`, entity names; the
///   choices a command's usage spells (`.mode j` → `json`, `jsonl`; `on|off`); after `.help`,
///   command names;
/// - in a statement: entity names at its start and after `FETCH`, `FROM`, `COUNT`, `UPDATE`,
///   `DELETE`; comparators after `USING`; key paths after a dot, following relationships from
///   the statement's entity (or the one `.use` chose): `category.na` → `category.name`;
///   `$variables`; elsewhere keywords and operators (`BEGINS` → `BEGINSWITH`, in the case they
///   are typed in), clause words and the entity's keys.
///
/// Keywords, entities and keys match whatever their case; nothing completes inside a string.
extension Session {
    /// The words the word before `cursor` (a character offset in `line`) may become.
    func completions(for line: String, cursor: Int) -> [String] {
        completion(for: line, cursor: cursor).candidates
    }

    /// The completion of the word before `cursor` (a character offset in `line`).
    func completion(for line: String, cursor: Int) -> Completion {
        let before = String(line.prefix(max(0, cursor)))
        let start = before.drop(while: \.isWhitespace)
        if !isContinuing, start.hasPrefix(".") {
            return dotCommandCompletion(start)
        }
        let statement = isContinuing ? pendingText + "\n" + line : line
        let previousLines = isContinuing ? pendingText + "\n" : ""
        return statementCompletion(before: previousLines + before, statement: statement)
    }

    // MARK: Dot commands

    /// Commands whose arguments are file names.
    static let fileArgumentCommands: Set<String> = ["open", "read", "import", "output", "once", "request"]
    /// Commands whose argument is an entity.
    static let entityArgumentCommands: Set<String> = ["use", "schema", "describe", "tables", "indexes"]

    private func dotCommandCompletion(_ text: Substring) -> Completion {
        guard let space = text.firstIndex(where: \.isWhitespace) else {
            let names = DotCommands.all.map { "." + $0.name }
            return Completion(wordLength: text.count, candidates: Self.matching(names, text))
        }
        let typed = text[text.index(after: text.startIndex)..<space].lowercased()
        let name = DotCommands.named(typed)?.name ?? typed
        let arguments = text[space...].drop(while: \.isWhitespace)
        let word = arguments.last.map { $0.isWhitespace } == true ? Substring("") : Substring(arguments.split(whereSeparator: \.isWhitespace).last ?? "")
        let isFirstArgument = !arguments.contains(where: \.isWhitespace)
        if Self.fileArgumentCommands.contains(name) {
            let files = Self.fileNames(completing: String(word))
            return Completion(wordLength: word.count, candidates: files, goOn: Set(files.filter { $0.hasSuffix("/") }))
        }
        guard isFirstArgument else { return .none }
        if Self.entityArgumentCommands.contains(name) {
            return Completion(wordLength: word.count, candidates: Self.matching(entityNames, word))
        }
        if name == "help" {
            return Completion(wordLength: word.count, candidates: Self.matching(DotCommands.all.map(\.name), word))
        }
        if let command = DotCommands.named(name) {
            return Completion(wordLength: word.count, candidates: Self.matching(Self.choices(in: command.usage), word))
        }
        return .none
    }

    /// The choices a usage spells for its first argument: `.mode table|box|line` → table, box,
    /// line (nothing for a placeholder such as `FILE`).
    static func choices(in usage: String) -> [String] {
        let words = usage.split(separator: " ")
        guard words.count > 1, words[1].contains("|") else { return [] }
        let choices = words[1].trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: "|").map(String.init)
        return choices.allSatisfy { $0 == $0.lowercased() } ? choices : []
    }

    /// Files and folders whose path starts with `word` (`~/` is the home folder; folders end
    /// in `/`; hidden ones only when the name typed starts with a dot).
    static func fileNames(completing word: String) -> [String] {
        let quote = word.first.flatMap { $0 == "\"" || $0 == "'" ? String($0) : nil } ?? ""
        let path = String(word.dropFirst(quote.count))
        let folderPart = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let namePrefix = String(path.dropFirst(folderPart.count))
        var folder = folderPart.isEmpty ? "." : folderPart
        if folder == "~/" || folder.hasPrefix("~/") {
            let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
            folder = home + folder.dropFirst()
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var candidates: [String] = []
        for name in names where name.hasPrefix(namePrefix) && (namePrefix.hasPrefix(".") || !name.hasPrefix(".")) {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent(name), isDirectory: &isFolder)
            candidates.append(quote + folderPart + name + (exists && isFolder.boolValue ? "/" : ""))
        }
        return candidates.sorted()
    }

    // MARK: Statements

    /// Statement words (Grammar/statement.ebnf).
    /// (The long `ASCENDING` and `DESCENDING` are not offered: `ASC` and `DESC` are.)
    static let statementWords = StatementWord.spellings { $0 != .ascending && $0 != .descending }
    /// The words a statement starts with.
    static let statementStarts = StatementWord.statementStarts.map(\.spelling)
    /// The predicate language's keywords and operators (`UTI-CONFORMS-TO` and `UTI-EQUALS` are
    /// not words to complete).
    static let languageKeywords = Keyword.reservedWords
    /// The comparators a sort key may use (`USING`).
    static let comparators = StringComparator.allCases.map(\.rawValue)
    /// The collection operators offered after a to-many relationship (`@count`, `@sum`, …).
    static let collectionOperators = CollectionOperator.aggregates.map(\.key)

    private var entityNames: [String] { store.map { StoreModels.outline(of: $0).entities.map(\.name) } ?? [] }

    private func statementCompletion(before: String, statement: String) -> Completion {
        let scanned = StatementWords(before)
        if scanned.endsInString { return .none }
        let wordStart = before.lastIndex { !StatementWords.isWordCharacter($0) }.map(before.index(after:)) ?? before.startIndex
        let word = before[wordStart...]
        let previous = scanned.words.dropLast(word.isEmpty ? 0 : 1).last.map { $0.uppercased() }
        let entity = statementEntity(StatementWords(statement).words)

        if word.hasPrefix("$") {
            return Completion(wordLength: word.count, candidates: Self.matching(variables.keys.map { "$" + $0 }, word))
        }
        if let dot = word.lastIndex(of: ".") {
            let (paths, goOn) = keyPaths(after: word[..<dot], completing: word[word.index(after: dot)...], entity: entity)
            return Completion(wordLength: word.count, candidates: paths, goOn: goOn)
        }
        var candidates: [String]
        if let previous {
            // What the statement word before it, if it is one, puts here.
            let previousWord = StatementWord(spelling: previous)
            switch previousWord?.next {
            case .comparator?:
                candidates = Self.comparators
            case .entity?:
                candidates = entityNames + (previousWord == .delete ? Self.casing([StatementWord.from.spelling], like: word) : [])
            case .keyPath?:
                candidates = keys(of: entity)
            case .nameOrNumber?:
                candidates = []
            case nil:
                candidates = Self.casing(Self.languageKeywords + Self.statementWords, like: word) + keys(of: entity)
            }
        } else {
            // The statement's first word: a statement, an entity, or (after .use) a bare predicate.
            candidates = Self.casing(Self.statementStarts, like: word) + entityNames
            if self.entity != nil { candidates += keys(of: entity) + Self.casing(Self.languageKeywords, like: word) }
        }
        let relationships = Set(entity?.relationships.map(\.name) ?? [])
        let matches = Self.matching(candidates, word)
        return Completion(wordLength: word.count, candidates: matches, goOn: relationships.intersection(matches))
    }

    /// The entity a statement fetches or changes: the one after FETCH, FROM, COUNT, UPDATE or
    /// DELETE [FROM], or its first word when that names one; else the one `.use` chose.
    private func statementEntity(_ words: [Substring]) -> EntityDescription? {
        guard let model = store.map(StoreModels.outline(of:)) else { return nil }
        for (index, word) in words.enumerated() where StatementWord(spelling: word)?.next == .entity {
            for name in words.dropFirst(index + 1).prefix(2) {
                if let entity = model.entity(named: String(name)) { return entity }
                if StatementWord(spelling: name) != .from { break }
            }
        }
        if let first = words.first, let entity = model.entity(named: String(first)) { return entity }
        return self.entity.flatMap(model.entity(named:))
    }

    /// The attribute and relationship names of `entity`.
    private func keys(of entity: EntityDescription?) -> [String] {
        entity?.propertyNames ?? []
    }

    /// `base.name` for each key of the entity `base` leads to from `entity` (following
    /// relationships), whose name starts with `prefix`; after a to-many relationship, also the
    /// collection operators. Also those of them that are relationships.
    private func keyPaths(after base: Substring, completing prefix: Substring, entity: EntityDescription?) -> (paths: [String], relationships: Set<String>) {
        guard let model = store.map(StoreModels.outline(of:)), var current = entity else { return ([], []) }
        var toMany = false
        for component in base.split(separator: ".", omittingEmptySubsequences: false) {
            guard let relationship = current.relationship(named: String(component)),
                  let destination = model.entity(named: relationship.destination) else { return ([], []) }
            toMany = toMany || relationship.isToMany
            current = destination
        }
        let operators = toMany ? Self.collectionOperators : []
        let paths = Self.matching(current.propertyNames + operators, prefix).map { base + "." + $0 }
        return (paths, Set(current.relationships.map { base + "." + $0.name }).intersection(paths))
    }

    // MARK: Matching

    /// The candidates that start with `word` whatever its case, sorted without repeats.
    static func matching(_ candidates: [String], _ word: Substring) -> [String] {
        let lowered = word.lowercased()
        let matches = Set(candidates.filter { $0.lowercased().hasPrefix(lowered) })
        return matches.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }

    /// Keywords in the case the word is being typed in: lower-case after a lower-case start,
    /// as they are spelt otherwise.
    static func casing(_ keywords: [String], like word: Substring) -> [String] {
        guard let first = word.first, first.isLowercase else { return keywords }
        return keywords.map { $0.lowercased() }
    }
}

/// A statement's words as far as completion needs them: identifiers and key paths outside
/// string literals, and whether the text ends inside one.
struct StatementWords {
    private(set) var words: [Substring] = []
    private(set) var endsInString = false

    init(_ text: String) {
        var quote: Character?
        var escaped = false
        var wordStart: String.Index?
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
                continue
            }
            if Self.isWordCharacter(character) {
                if wordStart == nil { wordStart = index }
                continue
            }
            if let start = wordStart {
                words.append(text[start..<index])
                wordStart = nil
            }
            if character == "\"" || character == "'" { quote = character }
        }
        if let start = wordStart { words.append(text[start...]) }
        endsInString = quote != nil
    }

    /// Letters, digits and `_ . $ @ #`: what identifiers, key paths and variables are made of.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "_.$@#".contains(character)
    }
}
