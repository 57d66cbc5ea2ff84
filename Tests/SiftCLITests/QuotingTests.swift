import Testing
@testable import SiftCLI

/// What the CLI quotes for another reader (a CSV field, a shell word) doubles or escapes every
/// quote, also one a combining mark follows: the two are one `Character`, which
/// `replacingOccurrences(of:with:)` does not match, but a CSV reader or the shell reads the
/// quote, then the mark.
@Suite struct QuotingTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("x\"\u{301}y", "\"x\"\"\u{301}y\""),
    ])
    func csvField(text: String, expected: String) {
        #expect(CSVWriter.field(text) == expected)
    }

    @Test(arguments: [
        ("it's", #"'it'\''s'"#),
        ("x'\u{301}", "'x'\\''\u{301}'"),
    ])
    func shellWord(text: String, expected: String) {
        #expect(SplitStatement.quote(text) == expected)
    }
}
