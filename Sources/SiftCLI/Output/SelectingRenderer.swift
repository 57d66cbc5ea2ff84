import Foundation
import Sift

/// `--select a,b.c`: each result becomes an object of the selected key paths, keyed by the key
/// path (`{"a": 1, "b.c": "x"}`; `#2B` is keyed `2B`; a key path a record lacks is null), and is printed by the
/// `--output` renderer it wraps. Its JSON text is written anew (compact), not taken from the
/// input.
struct SelectingRenderer: ResultRenderer {
    var inner: any ResultRenderer
    let selection: [(name: String, expression: CompiledExpression)]

    /// Compiles the key paths of `--select`: a comma-separated list of key paths.
    static func selection(_ text: String) throws(FilterFailure) -> [(name: String, expression: CompiledExpression)] {
        var selection: [(name: String, expression: CompiledExpression)] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces)
            let expression: ExpressionNode
            do {
                expression = try ExpressionNode(format: name)
            } catch {
                throw FilterFailure("error: --select: '\(name)' is not a key path: \(error.message)")
            }
            guard let keys = KeyPathOption.keys(of: expression), let compiled = try? CompiledExpression(expression) else {
                throw FilterFailure("error: --select: '\(name)' is not a key path (write keys and dotted key paths: --select title,author.name)")
            }
            selection.append((keys.joined(separator: "."), compiled))
        }
        return selection
    }

    /// The object `match` becomes.
    func selected(_ match: Match) -> Match {
        var object = ValueDictionary()
        for (name, expression) in selection {
            object[name] = (try? expression.evaluate(match.value)) ?? .null
        }
        let value = Value.dictionary(object)
        var text: [UInt8] = []
        JSONWriter.write(value, to: &text)
        return Match(value: value, position: match.position, text: text)
    }

    mutating func write(_ match: Match) {
        inner.write(selected(match))
    }

    mutating func finish() {
        inner.finish()
    }

    mutating func writeSections(_ sections: [MatchSection]) {
        inner.writeSections(sections.map { section in
            MatchSection(name: section.name, indexTitle: section.indexTitle, matches: section.matches.map(selected))
        })
    }

    mutating func abandon() {
        inner.abandon()
    }

    func sectionStream() -> any SectionStream { SelectingSectionStream(inner: inner.sectionStream(), renderer: self) }
}

/// Sections as they come, each result selected before the inner format's stream prints it.
private struct SelectingSectionStream: SectionStream {
    var inner: any SectionStream
    let renderer: SelectingRenderer

    mutating func begin(_ section: RecordSection) { inner.begin(section) }
    mutating func write(_ match: Match) { inner.write(renderer.selected(match)) }
    mutating func finish() { inner.finish() }
    mutating func abandon() { inner.abandon() }
}
