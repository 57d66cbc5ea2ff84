import Foundation
import Testing
@testable import SiftLanguage

/// ``KeyLocator``: where a statement writes the key an error found after parsing names, so the
/// error points at its column (issue 28 §2), not column 1.
@Suite struct KeyLocatorTests {
    @Test(arguments: [
        ("Note WHERE titel == 'x'", "titel", "titel"),
        ("Note WHERE a == 1 AND category.nme == 'x'", "nme", "nme"),
        ("Note WHERE a == 1 AND category.nme == 'x'", "category.nme", "category.nme"),
        ("Teams SORT BY #2b DESC", "2b", "#2b"),
        ("Teams SORT BY size, a.#first", "a.first", "a.#first"),
        ("SELECT teamID AS t FROM Teams SORT BY #3b", "3b", "#3b"),
        ("Item WHERE tags.@count > 1 AND x.@sum.price > 2", "x.@sum.price", "x.@sum.price"),
        ("COUNT Notes", "Notes", "Notes"),
        // Not in a string, a variable or a function's name; the first place it is a key.
        ("Note WHERE 'titel' == titel", "titel", "titel"),
        ("Note WHERE $titel == 1 AND titel == 2", "titel", "titel"),
        ("Note WHERE lower(x) == 1 AND lower == 2", "lower", "lower"),
        ("caf\\u00E9 == 1", "café", "caf\\u00E9"),
    ])
    func findsWhereTheKeyIsWritten(_ text: String, _ keyPath: String, _ written: String) throws {
        let range = try #require(KeyLocator.range(ofKeyPath: keyPath, in: text))
        let found = String(decoding: Array(text.utf8)[range.start..<range.end], as: UTF8.self)
        #expect(found == written)
        #expect(text.components(separatedBy: written).count >= 2)
    }

    @Test(arguments: [
        ("Note WHERE title == 'titel'", "titel"), ("Note WHERE $titel == 1", "titel"), ("Note WHERE a.b == 1", "b.a"),
        ("Note WHERE a == 1", ""), ("Note WHERE a == 1", "a..b"), ("Note WHERE a ? 1 AND titel == 2", "titel"),
    ])
    func findsNothingWhereTheKeyIsNotAKey(_ text: String, _ keyPath: String) {
        #expect(KeyLocator.range(ofKeyPath: keyPath, in: text) == nil)
    }

    @Test func columnsCountCharacters() {
        let text = "Note WHERE name == \"ééé\" AND titel == 1"
        let range = KeyLocator.range(ofKeyPath: "titel", in: text)
        #expect(range.map { KeyLocator.column(ofOffset: $0.start, in: text) } == 30)
    }
}
