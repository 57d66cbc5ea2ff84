import Foundation
@testable import SiftSQL
@testable import SiftSQLStore
@testable import SiftSQLiteStore
import Testing

/// ``SimpleClusters``: the classes read from Swift's segmentation, and the claim LIKE's `?`
/// rests on — in simple text, every base or control begins a Character and nothing else does.
@Suite struct SimpleClustersTests {
    let classes = SimpleClusters.current

    @Test(arguments: [
        ("a", SimpleClusters.Kind.base), ("\u{E9}", .base), ("\u{915}", .base), ("\u{4E00}", .base), ("\u{20000}", .base),
        ("\u{10FFFD}", .base), ("\u{3C3}", .base), ("\u{2603}", .other), ("\u{1F600}", .other), ("\u{A9}", .other),
        ("\u{301}", .extender), ("\u{200D}", .extender), ("\u{200C}", .extender), ("\u{903}", .extender), ("\u{93F}", .extender),
        ("\u{1F3FB}", .extender), ("\u{FE0F}", .extender), ("\u{E0041}", .extender),
        ("\n", .control), ("\t", .control), ("\u{7F}", .control), ("\u{2028}", .control),
        ("\r", .other), ("\u{94D}", .other), ("\u{9CD}", .other), ("\u{600}", .other), ("\u{110BD}", .other),
        ("\u{1100}", .other), ("\u{1161}", .other), ("\u{11A8}", .other), ("\u{AC00}", .other), ("\u{AC01}", .other), ("\u{1F1E6}", .other),
    ] as [(String, SimpleClusters.Kind)])
    func classifies(_ text: String, _ kind: SimpleClusters.Kind) throws {
        let u = try #require(text.unicodeScalars.first)
        #expect(classes.kind(of: u) == kind, "U+\(String(u.value, radix: 16))")
        #expect(SimpleClusters.kind(u) == kind, "U+\(String(u.value, radix: 16))")
    }

    /// Random simple texts from every class (Devanagari consonants, vowel signs and the ZWJ
    /// among them, and scalars from all planes): Swift finds a Character at each base and each
    /// control, and nowhere else. Wrong classes (a linker taken for an extender, a prepend or a
    /// pictograph for a base) make texts here that Swift segments otherwise.
    @Test func simpleTextsBreakBeforeEachBaseAndControl() {
        var generator = SystemRandomNumberGenerator()
        let tricky: [UInt32] = [0x61, 0x915, 0x937, 0x930, 0x94D, 0x93F, 0x903, 0x93C, 0x200D, 0x200C, 0x301, 0x0A, 0x09, 0x0D,
                                0x600, 0x1100, 0x1161, 0x11A8, 0xAC00, 0x1F1E6, 0x1F600, 0x2764, 0x1F3FB, 0xFE0F, 0xE0041, 0x9CD, 0x995]
        var checked = 0
        for _ in 0..<20_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let value = Bool.random(using: &generator) ? tricky.randomElement(using: &generator) ?? 0x61
                    : UInt32.random(in: 1...0x10FFFF, using: &generator)
                if let u = Unicode.Scalar(value) { text.append(u) }
            }
            let string = String(text)
            guard classes.isSimple(string) else { continue }
            checked += 1
            let starts = string.unicodeScalars.filter { [.base, .control].contains(classes.kind(of: $0)) }.count
            #expect(string.count == starts, "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
            // And each Character is of a simple cluster's shape.
            #expect(string.allSatisfy(classes.isSimple), "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(checked > 1000)
    }

    /// Not simple: what Swift joins otherwise, and extenders that begin a Character.
    @Test func otherTextIsNotSimple() {
        for text in ["\r\n", "\u{915}\u{94D}\u{937}", "\u{600}a", "\u{1100}\u{1161}", "\u{1F1EB}\u{1F1F7}", "👍🏽", "👨‍👩‍👧", "\u{301}a", "a\n\u{301}", "한"] {
            #expect(!classes.isSimple(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for text in ["", "abc", "x\u{301}\u{302}y", "\u{915}\u{93F}", "a\nb", "a\u{200D}b", "日本", "ß"] {
            #expect(classes.isSimple(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
