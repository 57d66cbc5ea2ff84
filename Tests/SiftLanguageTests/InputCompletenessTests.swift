import Testing
@testable import SiftLanguage

/// Whether input typed over several lines is unfinished, on the whole text and a line at a
/// time (``InputCompleteness/Tracker``), which must agree after every line.
@Suite struct InputCompletenessTests {
    static let cases: [(String, Bool)] = [
        ("Note WHERE a == 1", false),
        ("Note WHERE title BEGINSWITH[c] ", true),
        ("Note WHERE title BEGINSWITH[c]", true),
        ("Note WHERE tags[c]", false),
        ("Note WHERE (a == 1", true),
        ("Note WHERE (a == 1\n)", false),
        ("Note WHERE a IN {1,\n2,\n3", true),
        ("Note WHERE a IN {1,\n2,\n3}", false),
        ("Note WHERE title == \"open\nstring", true),
        ("Note WHERE title == \"open\nstring\" AND", true),
        ("Note WHERE title == \"open\nstring\" AND b\n== 2", false),
        ("Note WHERE a ==\n1 AND\nb ==\n2", false),
        ("Note\nWHERE", true),
        ("Note SORT BY", true),
        ("Note WHERE a == 1 @@", false),
        ("", false),
    ]

    @Test(arguments: cases)
    func wholeTextAndLineByLineAgree(_ text: String, _ unfinished: Bool) {
        #expect(InputCompleteness.isUnfinished(text) == unfinished)
        var tracker = InputCompleteness.Tracker()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in lines.enumerated() {
            let soFar = lines[...index].joined(separator: "\n")
            let unfinishedNow = tracker.append(line)
            #expect(unfinishedNow == InputCompleteness.isUnfinished(soFar), "after line \(index + 1) of \(text.debugDescription)")
        }
        #expect(tracker.isUnfinished == unfinished)
    }

    /// 20,000 lines are read a line at a time, each once (the whole text lexed after every line
    /// was quadratic: 18 s for such an IN list in the REPL and `sift run`). Counted in bytes
    /// walked, not timed: a timed unit test fails on a loaded machine and proves nothing.
    @Test func aLongStatementIsReadOnce() {
        var tracker = InputCompleteness.Tracker()
        var results = [tracker.append("Note WHERE n IN {")]
        var length = "Note WHERE n IN {".utf8.count
        for i in 0..<20_000 {
            results.append(tracker.append("\(i),"))
            length += 1 + "\(i),".utf8.count
        }
        #expect(results.allSatisfy { $0 })
        let last = tracker.append("-1}")
        length += 1 + 3
        #expect(!last)
        #expect(tracker.bytesLexed >= length)
        #expect(tracker.bytesLexed <= 2 * length, "each line lexed once, not the whole text again")
    }
}
