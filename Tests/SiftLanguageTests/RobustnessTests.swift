import Foundation
import Testing
@testable import SiftLanguage

/// No input may crash, hang or overflow the stack: it parses or it is a ParseError.
@Suite("Robustness")
struct RobustnessTests {
    @Test func hundredThousandNestedParenthesesAreANestingError() {
        let format = String(repeating: "(", count: 100_000) + "a == 1" + String(repeating: ")", count: 100_000)
        let error = parseError(format)
        #expect(error?.code == .nestingTooDeep)
        #expect(error?.message.contains("256") == true)
    }

    @Test(arguments: [
        { (n: Int) in String(repeating: "NOT ", count: n) + "a == 1" },
        { (n: Int) in "a == " + String(repeating: "-", count: n) + "b" },
        { (n: Int) in "a == " + String(repeating: "~", count: n) + "b" },
        { (n: Int) in "a == " + String(repeating: "{", count: n) + String(repeating: "}", count: n) },
        { (n: Int) in "a == " + String(repeating: "abs(", count: n) + "1" + String(repeating: ")", count: n) },
        { (n: Int) in "a == b" + String(repeating: "[0]", count: n) },
        { (n: Int) in "a == 1" + String(repeating: " + 1", count: n) },
        { (n: Int) in "a == 2" + String(repeating: " ** 2", count: n) },
        { (n: Int) in String(repeating: "SUBQUERY(x, $y, ", count: n) + "TRUEPREDICATE" + String(repeating: ").@count == 1", count: n) },
        { (n: Int) in "a == " + String(repeating: "TERNARY(TRUEPREDICATE, ", count: n) + "1" + String(repeating: ", 2)", count: n) },
        { (n: Int) in "a == " + String(repeating: "$x := ", count: n) + "1" },
    ] as [@Sendable (Int) -> String])
    func everyKindOfDeepNestingIsBounded(_ make: @Sendable (Int) -> String) {
        // Well inside the limit: parses, prints and compares without trouble.
        let shallow = make(60)
        do {
            let p = try PredicateNode(format: shallow)
            #expect(try PredicateNode(format: p.description) == p)
        } catch {
            Issue.record("\(error.rendered())")
        }
        // Far past it: a clean error.
        #expect(parseError(make(50_000))?.code == .nestingTooDeep)
    }

    @Test func theNestingLimitIsConfigurable() throws {
        let format = String(repeating: "(", count: 20) + "a == 1" + String(repeating: ")", count: 20)
        #expect(throws: Never.self) { try PredicateNode(format: format, arguments: []) }
        let error = parseError(format, options: ParserOptions(maximumNestingLevel: 10))
        #expect(error?.code == .nestingTooDeep)
        // The eleventh parenthesis is one too many.
        #expect(error?.column == 11)
        #expect(ParserOptions.defaultMaximumNestingLevel >= 200)
    }

    @Test func longFlatChainsAreNotNesting() throws {
        let ors = (0..<20_000).map { "a == \($0)" }.joined(separator: " OR ")
        let p = try parse(ors)
        guard case .or(let parts) = p.kind else { Issue.record("expected OR"); return }
        #expect(parts.count == 20_000)
        let inList = "a IN {" + (0..<100_000).map(String.init).joined(separator: ", ") + "}"
        #expect(try parse(inList).description == inList)
    }

    @Test func tenMegabyteStringLiteral() throws {
        let body = String(repeating: "abcdefghé\\\"", count: 1_000_000)
        let format = "a == \"" + body + "\""
        #expect(format.utf8.count > 10_000_000)
        let p = try parse(format)
        guard case .comparison(let c) = p.kind, case .constant(.string(let s)) = c.right.kind else {
            Issue.record("unexpected shape"); return
        }
        #expect(s.utf8.count == 11_000_000)
        #expect(try parse(p.description) == p)
        // And unterminated: an error pointing at the opening quote.
        let error = parseError("a == \"" + body)
        #expect(error?.code == .unterminatedString)
        #expect(error?.column == 6)
    }

    /// A 100 MB literal is past the 16 MB the parser reads: an error at once, without reading
    /// (or copying) the text; the limit can be raised or lowered.
    @Test func textPastTheLengthLimitIsRefusedAtOnce() throws {
        // (Made from bytes: String(repeating:count:) builds 100 MB a character at a time.)
        let format = String(decoding: Array("a == \"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 100 << 20) + [UInt8(ascii: "\"")],
                            as: UTF8.self)
        let started = ContinuousClock.now
        // Only small parts of the error go into expectations (Swift Testing describes the
        // values it compares, and the error holds the whole text).
        let error = parseError(format)
        let code = error?.code, message = error?.message ?? "", column = error?.column
        let rendered = error?.rendered().utf8.count ?? .max
        let elapsed = ContinuousClock.now - started
        #expect(code == .tooLong)
        #expect(message.hasPrefix("the text is 100 MB long, more than the 16 MB the parser reads"), "\(message)")
        #expect(column == 1)
        // The caret line shows a window of the text, not all of it.
        #expect(rendered < 600)
        #expect(elapsed < .seconds(2))
        var options = ParserOptions()
        options.maximumLength = 10
        #expect(throws: Never.self) { try PredicateNode(format: "a == 1", arguments: [], options: options) }
        #expect(parseError("a == 123456", options: options)?.code == .tooLong)
        var statementCode: ParseError.Code?
        do { _ = try FetchStatement(parsing: format) } catch { statementCode = error.code }
        #expect(statementCode == .tooLong)
    }

    /// The caret window of a long format string reads only the characters up to the window.
    @Test(arguments: [1, 2, 50, 51, 99, 100, 101, 150, 5_000, 9_950, 9_999, 10_000, 10_001])
    func theCaretWindowMatchesTheWholeText(_ column: Int) {
        let text = (0..<10_000).map { String(UnicodeScalar(UInt8(97 + $0 % 26))) }.joined()
        let (line, caret) = DiagnosticWindow.excerpt(text, column: column)
        let characters = Array(text)
        // The window as it was computed from the whole text.
        let start = max(0, min(column - 1 - DiagnosticWindow.width / 2, characters.count - DiagnosticWindow.width))
        let end = min(characters.count, start + DiagnosticWindow.width)
        let expected = (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
        #expect(line == expected)
        #expect(caret == column - start + (start > 0 ? 1 : 0))
        #expect(DiagnosticWindow.excerpt("short\ttext", column: 3) == ("short text", 3))
    }

    static let longPredicate = #"""
        (title BEGINSWITH[cd] "star" OR name LIKE[c] 'a*b?') AND ANY tags.name IN {"sci-fi", 'drama', nil} \#
        AND NOT (price * 2 + 1 > 3.5e2 || SUBQUERY(items, $x, $x.qty >= 0x10 AND $x.sku MATCHES "[A-Z]+").@count == 0) \#
        AND TERNARY(#size > 1, add:to:(1, 2), CAST("2021-03-04T05:06:07Z", "NSDate")) != $v AND d['k'][FIRST] BETWEEN {-1, 1} \#
        AND FUNCTION(SELF, 'uppercase:', name) ==[n] "\u00e9\n"
        """#

    @Test func everyTruncationOfALongPredicateParsesOrFailsCleanly() {
        let bytes = Array(Self.longPredicate.utf8)
        var accepted = 0
        for length in 0...bytes.count {
            let prefix = String(decoding: bytes[0..<length], as: UTF8.self)
            do {
                let p = try PredicateNode(format: prefix)
                accepted += 1
                #expect(try PredicateNode(format: p.description) == p, "\(prefix)")
            } catch {
                #expect(error.column >= 1 && error.offset <= prefix.utf8.count, "\(prefix)")
            }
        }
        // Only a few prefixes (ending after a complete comparison) are themselves predicates.
        #expect(accepted >= 2 && accepted < bytes.count / 4)
    }

    @Test func everySuffixAndEveryDeletionFailsCleanlyToo() {
        let chars = Array(Self.longPredicate)
        for i in chars.indices {
            let suffix = String(chars[i...])
            var deleted = chars
            deleted.remove(at: i)
            for text in [suffix, String(deleted)] {
                do {
                    let p = try PredicateNode(format: text)
                    #expect(try PredicateNode(format: p.description) == p, "\(text)")
                } catch {
                    #expect(error.column >= 1, "\(text)")
                }
            }
        }
    }

    @Test func randomBytesNeverCrash() {
        var rng = SplitMix64(seed: 0x5EED_0001)
        let alphabet = Array("aZ_09 \t\n\"'\\$%@#.,:;=!<>&|^~+-*/()[]{}?éß😀KdfsuxuAND OR NOT ANY IN SUBQUERY TERNARY CAST FUNCTION".utf8)
        for round in 0..<20_000 {
            let length = Int(rng.next() % 40)
            var bytes: [UInt8] = []
            for _ in 0..<length {
                // Mostly meaningful bytes, sometimes anything (invalid UTF-8 is repaired by String).
                bytes.append(rng.next() % 4 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : alphabet[Int(rng.next() % UInt64(alphabet.count))])
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let arguments: [Any?] = [1, "a.b", 2.5, "x"]
            do {
                let p = try PredicateNode(format: text, arguments: Array(arguments.prefix(round % 5)))
                #expect(try PredicateNode(format: p.description) == p, "\(text)")
            } catch {
                #expect(error.column >= 1 && error.column <= text.count + 1, "\(text)")
            }
        }
    }
}

@Suite("Robustness on small stacks")
struct SmallStackTests {
    /// Whether this is an AddressSanitizer build (`scripts/sanitize address`), whose stack
    /// frames are several times larger (each local gets red zones around it).
    static let addressSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    /// Runs `body` on a thread with a 256 KiB stack (smaller than Swift concurrency's threads;
    /// four times that in an AddressSanitizer build, for the same room).
    func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 256 * 1024 * (Self.addressSanitized ? 4 : 1)
        thread.start()
        done.wait()
    }

    @Test func deepNestingOnASmallStackIsAnErrorNotACrash() {
        onSmallStack {
            let format = String(repeating: "abs({", count: 5_000) + "1" + String(repeating: "})", count: 5_000) + " == 1"
            #expect(parseError(format)?.code == .nestingTooDeep)
            let parens = String(repeating: "(", count: 5_000) + "a == 1" + String(repeating: ")", count: 5_000)
            #expect(parseError(parens)?.code == .nestingTooDeep)
        }
    }

    @Test func moderateNestingStillWorksOnASmallStack() {
        onSmallStack {
            let format = String(repeating: "(", count: 20) + "a == 1" + String(repeating: ")", count: 20)
            #expect((try? PredicateNode(format: format)) != nil)
        }
    }
}
