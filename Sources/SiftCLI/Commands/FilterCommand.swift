import ArgumentParser
import Foundation
import Sift

/// `sift filter`: the records of a sequence of JSON values (an array, JSON Lines, jq's output)
/// that match a predicate.
struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Print the records of JSON input (an array, JSON Lines, jq's output) that match a predicate.",
        discussion: """
            Reads FILE (or standard input) as jq does: any sequence of JSON values, separated by
            whitespace or not (JSON Lines, values one after another, pretty-printed values over
            several lines as 'jq .[]' prints them). A top-level array is opened: its elements are
            the records; any other value is one record. --path KEYPATH (items, data.items) takes
            instead the elements of the array at that key path of each value. sift prints the
            records the predicate holds for. Records are read and printed one at a time, so files of any size
            stream; --sort, --section-by, and the table and csv formats keep the matching records
            until the end, in at most --memory bytes (default: half of what the process may use,
            from ulimit -v/-d and the machine's memory; also SIFT_MEMORY): past that, sift stops
            with an error rather than run out of memory. Missing keys read as nil. Dates in the
            data are {"$date": "<ISO 8601>"}; also {"$uuid": ...}, {"$data": "<base64>"},
            {"$decimal": "1.5"}. The input must be UTF-8.

            --arg binds %@, %K and %d, %f, %s, ... in order; --var binds $NAME (both as in 'sift
            parse'). --sort takes "key [ASC|DESC] [USING comparator], ..." with comparators compare,
            caseInsensitiveCompare, localizedCompare, localizedCaseInsensitiveCompare and
            localizedStandardCompare; ties keep input order. --offset and --limit apply after
            sorting (a --limit of 0 means no limit; both take any non-negative 64-bit integer);
            sections are formed from what remains. Values equal under == share a section (0, -0
            and 0.0 are one section, named as the first of them is written). --select a,b.c prints
            each result as an object of those key paths, keyed by the key path (null where a record
            lacks one; its JSON is written anew). In --sort, --section-by and --select a key is
            written as in the predicate: one that is not a plain name with # (#2B, #size; keyed 2B
            and size). --count prints only the number of results (after --offset and --limit). A
            key that the predicate, --sort, --section-by or --select reads and that no record has
            (when the records are objects) is named in a warning on standard error after the
            results: "warning: no record has 'tags'; did you mean 'tag'?".

            Output formats: json (an array of the matching records as written in the input), jsonl
            (one record per line), table (aligned columns), csv (RFC 4180), indices (a JSON array of
            the records' 0-based input positions), and box, line and markdown (as the REPL's .mode
            prints them). With --section-by, json and indices print
            {"sections": [{"name", "indexTitle", "numberOfObjects", "objects"}]}; jsonl, table and
            csv print a '# section' line before each section; box, line and markdown a heading.

            Examples:
              $ sift filter 'age >= 30 AND name BEGINSWITH[c] "a"' people.jsonl
              $ cat people.json | sift filter 'ANY tags == %@' --arg '"admin"' --output table
              $ sift filter 'born < $cutoff' people.jsonl --var 'cutoff={"$date": "1990-01-01"}'
              $ sift filter 'TRUEPREDICATE' people.jsonl --sort 'age DESC, name USING localizedStandardCompare' --limit 10
              $ sift filter 'score > 0.5' events.jsonl --section-by kind --output jsonl
              $ sift filter 'status == "failed"' jobs.jsonl --output indices
              $ jq '.[]' people.json | sift filter 'age > 40' --select name,address.city --output jsonl
              $ sift filter 'price > 10' response.json --path data.items --count

            --jobs N reads and matches JSON Lines (any sequence of values but a top-level array,
            without --path) on N threads, in chunks cut at line boundaries, and prints the
            results in input order, exactly as --jobs 1 (one thread) prints them. The default is
            the processors the process may use (its affinity mask, bounded by a cgroup CPU
            quota); --jobs 1 reads on one thread. A top-level array and --path are read on one
            thread.

            On a predicate error, sift prints the predicate with a caret under the column; on
            malformed input (including text that is not UTF-8), the line and column. Either way
            it exits with status 1; results printed before an error in the input stay, and a
            json or indices array is closed, so standard output is still valid JSON.
            """
    )

    @Argument(help: "The predicate format string.")
    var predicate: String

    @Argument(help: "A JSON file: an array, JSON Lines or any sequence of values (standard input when absent or '-').")
    var file: String?

    /// Words after the file: the shell split an unquoted predicate (an error that says to quote it).
    @Argument(help: .hidden)
    var splitWords: [String] = []

    @Option(name: .customLong("arg"), help: ArgumentHelp("A JSON value for the next format specifier (repeatable).", valueName: "JSON"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp("Bind $NAME to a JSON value (repeatable).", valueName: "NAME=JSON"))
    var variables: [String] = []

    @Option(help: ArgumentHelp("Sort the results: \"key [ASC|DESC] [USING comparator], ...\".", valueName: "KEYS"))
    var sort: String?

    @Option(help: ArgumentHelp("Print at most N results (0 means no limit).", valueName: "N"))
    var limit: Int = 0

    @Option(help: ArgumentHelp("Skip the first N results.", valueName: "N"))
    var offset: Int = 0

    @Option(name: .customLong("section-by"), help: ArgumentHelp("Group the results into sections by this key path.", valueName: "KEYPATH"))
    var sectionBy: String?

    @Option(help: ArgumentHelp("json, jsonl, table, csv, indices, box, line or markdown.", valueName: "FORMAT"))
    var output: OutputFormat = .json

    @Option(help: ArgumentHelp("The most memory kept records may take (--sort, --section-by, table, csv): bytes, or 512M, 2G.", valueName: "SIZE"))
    var memory: String?

    @Option(help: ArgumentHelp("The records are the elements of the array at this key path of each input value.", valueName: "KEYPATH"))
    var path: String?

    @Option(help: ArgumentHelp("Print only these key paths of each result, keyed by the key path: \"a,b.c\".", valueName: "KEYPATHS"))
    var select: String?

    @Flag(help: "Print only the number of results.")
    var count = false

    @Option(help: ArgumentHelp("Read and match on N threads (default: the processors the process may use).", valueName: "N"))
    var jobs: Int?

    func validate() throws {
        if !splitWords.isEmpty {
            if let file, FileManager.default.fileExists(atPath: file) {
                throw ValidationError("sift filter reads one FILE (or standard input), not \(splitWords.count + 1): \(([file] + splitWords).joined(separator: " ")) (cat them into it: cat a.jsonl b.jsonl | sift filter PREDICATE)")
            }
            // The predicate's words, then the file when the last word names one.
            var words = [predicate] + [file].compactMap { $0 } + splitWords
            let last = words.last.flatMap { FileManager.default.fileExists(atPath: $0) || $0 == "-" ? $0 : nil }
            if last != nil { words.removeLast() }
            try SplitStatement.check([words[0]], extra: Array(words.dropFirst()), what: "predicate", after: last)
        }
        if limit < 0 { throw ValidationError("--limit must be 0 or more (0 means no limit), not \(limit)") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more, not \(offset)") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more (threads; the default is the \(UsableProcessors.count) processors this process may use), not \(jobs)") }
        if count && sectionBy != nil { throw ValidationError("--count prints one number; it cannot be used with --section-by") }
        if let path, pathKeys(path).contains(where: \.isEmpty) {
            throw ValidationError("--path takes a key path of keys separated by '.' (items, data.items), not '\(path)'")
        }
    }

    func run() throws {
        let budget = try MemoryBudget.forCommand(option: memory)
        let values = try ArgumentValues(arguments: arguments, variables: variables)
        let compiled = try compile(values)
        let sortKeys = try parsedSortKeys()
        let sectionKeyPath = try parsedSectionKeyPath()
        let selection = try parsedSelection()
        let input = try InputFile.open(file)
        defer { input.close() }
        // Build only the keys the predicate, the sort, the sections and --select read; table
        // and csv, which print every key, read their results again in full (from the kept text).
        // The keys of --sort, --section-by and --select (for the projection and the warnings).
        let optionKeyPaths = (sortKeys ?? []).map { KeyPathOption.keys(of: $0.keyPath) }
            + (sectionKeyPath.map { [KeyPathOption.keys(of: $0)] } ?? [])
            + (selection ?? []).compactMap { KeyPathOption.keys(of: $0.expression.expression) }
        let projection = self.projection(compiled, optionKeyPaths)
        let printsRecords = !count && selection == nil
        let reparse = projection != nil && output.printsWholeValues && printsRecords
        let keepsText = output.printsRecordText && printsRecords
        let missingKeyPaths = MissingKeys.keyPaths(readBy: compiled.predicate) + optionKeyPaths.map(MissingKeys.plainKeys)
        // More than one job reads JSON Lines (any sequence of values but an array) in chunks;
        // an array, or --path, is read on one thread.
        // By default, the processors the process may use (docs/PERFORMANCE.md, "Every core").
        let jobs = self.jobs ?? UsableProcessors.count
        var readAlready: [UInt8] = []
        if jobs > 1 && path == nil, let start = JSONLinesStart.readFirstBytes(input.descriptor) {
            readAlready = start
        }
        let matcher: any MatchSource
        let missingKeys: MissingKeys
        if jobs > 1 && path == nil, let first = JSONLinesStart.firstValueByte(readAlready), first != UInt8(ascii: "[") {
            let keysSeen = KeysSeenReplay(collectsKeys: false)
            missingKeys = MissingKeys(keyPaths: missingKeyPaths, reader: keysSeen)
            let work = ChunkWork(predicate: compiled, projection: projection, reparse: reparse, keepsText: keepsText)
            matcher = ParallelMatcher(descriptor: input.descriptor, readAlready: readAlready, work: work, inputName: input.name,
                                      jobs: jobs, chunkBytes: ParallelMatcher.chunkBytes, missingKeys: missingKeys, keysSeen: keysSeen)
        } else {
            let reader = JSONRecordReader(fileDescriptor: input.descriptor, readAlready: readAlready, keepingText: keepsText || reparse,
                                          projection: projection, path: path.map(pathKeys) ?? [])
            missingKeys = MissingKeys(keyPaths: missingKeyPaths, reader: reader)
            matcher = Matcher(reader: reader, predicate: compiled, inputName: input.name, reparse: reparse,
                              keepsText: keepsText, missingKeys: missingKeys)
        }
        let standardOutput = StandardOutput()
        var renderer = output.makeRenderer(standardOutput)
        if let selection { renderer = SelectingRenderer(inner: renderer, selection: selection) }
        var kept = KeptMatches(budget: budget, reason: keepingReason(sortKeys), printsValues: output.printsWholeValues)
        do throws(FilterFailure) {
            if count {
                standardOutput.write("\(try countMatches(matcher))\n")
            } else if sortKeys == nil && sectionKeyPath == nil {
                try stream(matcher, &renderer, &kept)
            } else {
                try sortAndSection(matcher, sortKeys, sectionKeyPath, &renderer, &kept)
            }
        } catch {
            // Results printed before the error stay, closed so they are still valid JSON.
            renderer.abandon()
            standardOutput.endLine()
            standardOutput.flush()
            Output.error(error.message)
            throw ExitCode(1)
        }
        standardOutput.flush()
        for warning in missingKeys.warnings { Output.error("warning: \(warning)") }
    }

    // MARK: Steps

    /// Parses the predicate, binds --arg and --var, and compiles it.
    private func compile(_ values: ArgumentValues) throws -> CompiledPredicate {
        var parsed: PredicateNode
        do {
            parsed = try PredicateNode(format: predicate, arguments: values.arguments)
        } catch {
            Output.error(error.rendered())
            throw ExitCode(1)
        }
        if !values.variables.isEmpty {
            do {
                parsed = try parsed.substituting(variables: values.variables)
            } catch {
                Output.error("error: \(error)")
                throw ExitCode(1)
            }
        }
        do {
            return try CompiledPredicate(parsed)
        } catch {
            Output.error("error: \(error.message)")
            throw ExitCode(1)
        }
    }

    private func parsedSortKeys() throws -> [SortKey]? {
        guard let sort else { return nil }
        do {
            return try Sorting.parseSortKeys(sort)
        } catch {
            Output.error(Caret.rendered(sort, column: error.column, message: "error: --sort: \(error)"))
            throw ExitCode(1)
        }
    }

    /// --section-by's key path, written as in a predicate (`#size`, `address.city`), as the key
    /// path it names (`size`).
    private func parsedSectionKeyPath() throws -> String? {
        guard let sectionBy else { return nil }
        do throws(FilterFailure) {
            return try KeyPathOption.keyPath(sectionBy, option: "--section-by")
        } catch {
            Output.error(error.message)
            throw ExitCode(1)
        }
    }

    /// --select's key paths, compiled.
    private func parsedSelection() throws -> [(name: String, expression: CompiledExpression)]? {
        guard let select else { return nil }
        do throws(FilterFailure) {
            return try SelectingRenderer.selection(select)
        } catch {
            Output.error(error.message)
            throw ExitCode(1)
        }
    }

    /// The keys of a --path: `data.items` → `["data", "items"]`.
    private func pathKeys(_ path: String) -> [String] {
        path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// The top-level keys worth building: those the predicate reads and the first keys of the
    /// key paths of --sort, --section-by and --select (nil: all).
    private func projection(_ predicate: CompiledPredicate, _ optionKeyPaths: [[String]]) -> JSONProjection? {
        guard var keys = JSONProjection.keys(readBy: predicate.predicate) else { return nil }
        for keyPath in optionKeyPaths {
            // A collection operator (`@count`) reads the record as a whole.
            guard let first = keyPath.first, !first.hasPrefix("@") else { return nil }
            keys.insert(first)
        }
        return JSONProjection(keys: keys)
    }

    /// Why matches are kept until the end, for the error when they pass the budget.
    private func keepingReason(_ sortKeys: [SortKey]?) -> String {
        if sortKeys != nil { return "--sort" }
        if sectionBy != nil { return "--section-by" }
        return "--output \(output.rawValue)"
    }

    /// No sorting or sections: each match is printed as it is found, and reading stops once
    /// the limit is reached. (The table and csv formats keep the matches until the end.)
    private func stream(_ matcher: any MatchSource, _ renderer: inout any ResultRenderer, _ kept: inout KeptMatches) throws(FilterFailure) {
        var skipped = 0
        var printed = 0
        try matcher.forEachMatch { (match) throws(FilterFailure) in
            if skipped < offset {
                skipped += 1
                return true
            }
            if output.keepsEveryResult { try kept.hold(match) }
            renderer.write(match)
            printed += 1
            return limit == 0 || printed < limit
        }
        renderer.finish()
    }

    /// --count: the number of results (after --offset and --limit), without keeping them.
    private func countMatches(_ matcher: any MatchSource) throws(FilterFailure) -> Int {
        var matches = 0
        try matcher.forEachMatch { _ throws(FilterFailure) in
            matches += 1
            return limit == 0 || matches - offset < limit
        }
        let results = max(0, matches - offset)
        return limit == 0 ? results : min(results, limit)
    }

    /// Sorting or sections: the matches are kept (value, position and, for json/jsonl, text),
    /// sorted, cut by offset and limit, and grouped.
    private func sortAndSection(_ matcher: any MatchSource, _ sortKeys: [SortKey]?, _ sectionKeyPath: String?, _ renderer: inout any ResultRenderer,
                                _ kept: inout KeptMatches) throws(FilterFailure) {
        var matches: [Match] = []
        // Without sorting, results are in input order: only the first offset + limit matter
        // (both may be as large as Int.max: the sum saturates).
        let (sum, overflow) = offset.addingReportingOverflow(limit)
        let enough = sortKeys == nil && limit > 0 && !overflow ? sum : Int.max
        try matcher.forEachMatch { (match) throws(FilterFailure) in
            try kept.hold(match)
            matches.append(match)
            return matches.count < enough
        }
        let values = matches.map(\.value)
        var order: [Int]
        if let sortKeys {
            do {
                order = try Sorting.sortedIndices(values, by: sortKeys)
            } catch {
                throw FilterFailure("error: \(error.message)")
            }
        } else {
            order = Array(values.indices)
        }
        order = Array(order.dropFirst(offset))
        if limit > 0 { order = Array(order.prefix(limit)) }

        guard let sectionKeyPath else {
            for index in order { renderer.write(matches[index]) }
            renderer.finish()
            return
        }
        let sectioned: SectionedResults
        do {
            sectioned = try SectionedResults(values, order: order, sectionKeyPath: sectionKeyPath)
        } catch {
            throw FilterFailure("error: \(error.message)")
        }
        if let warning = sectioned.warning { Output.error("warning: \(warning)") }
        renderer.writeSections(sectioned.sections.map { section in
            MatchSection(name: section.name, indexTitle: section.indexTitle, matches: section.objectIndices.map { matches[$0] })
        })
    }
}

/// Reads the records and finds the matches.
struct Matcher {
    let reader: JSONRecordReader
    let predicate: CompiledPredicate
    let inputName: String
    /// Whether matches are read again in full from their text (the reader built only some keys).
    let reparse: Bool
    /// Whether matches keep their text.
    let keepsText: Bool
    /// Told of every record, for the warnings of keys no record has.
    let missingKeys: MissingKeys

    /// Calls `body` with each record the predicate holds for, until `body` returns false.
    func forEachMatch(_ body: (Match) throws(FilterFailure) -> Bool) throws(FilterFailure) {
        while true {
            let record: JSONRecordReader.Record
            do {
                guard let next = try reader.next() else { return }
                record = next
            } catch {
                throw FilterFailure("error: \(inputName): \(error)")
            }
            missingKeys.note(record.value)
            let matches: Bool
            do {
                matches = try predicate.evaluate(record.value)
            } catch {
                throw FilterFailure("error: \(inputName): line \(record.line): \(error.message)")
            }
            guard matches else { continue }
            var value = record.value
            if reparse {
                do {
                    value = try JSONParser.parse(record.text)
                } catch {
                    throw FilterFailure("error: \(inputName): \(error)")
                }
            }
            if !(try body(Match(value: value, position: record.position, text: keepsText ? record.text : []))) { return }
        }
    }
}

/// The matches `sift filter` keeps until the end, counted against its memory budget.
struct KeptMatches {
    var budget: MemoryBudget
    /// The option that makes the matches be kept (`--sort`), for the error.
    let reason: String
    /// Whether the output format makes a text of every value at the end (table, csv): that
    /// costs about as much again.
    let printsValues: Bool

    /// Counts `match` as kept; past the budget, the error that stops `sift filter`.
    mutating func hold(_ match: Match) throws(FilterFailure) {
        let size = MemoryBudget.size(of: match)
        guard budget.hold(printsValues ? 2 * size : size) else {
            throw FilterFailure("error: \(reason) needs to hold every matching record in memory; the input passed the \(budget.limitText) it may use "
                                + "(at record \(match.position + 1)); narrow the input with the predicate, stream it without \(reason), "
                                + "or allow more with --memory SIZE (or SIFT_MEMORY) where the machine has it")
        }
    }
}

/// An error that ends `sift filter`, with its whole message.
struct FilterFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
