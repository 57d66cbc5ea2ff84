/// How many cells a terminal gives text: two for East Asian Wide and Fullwidth characters and
/// emoji, none for combining marks, zero-width joiners and other invisible format characters,
/// one for the rest. Tables measure their cells with it, so columns of Chinese, Japanese,
/// Korean and emoji line up as `wcwidth(3)` would line them up:
///
///     TerminalWidth.of("abc")     // 3
///     TerminalWidth.of("漢字")     // 4
///     TerminalWidth.of("e\u{301}") // 1 (e and a combining acute accent)
///     TerminalWidth.of("👩‍💻")      // 2 (woman, zero-width joiner, laptop: one glyph)
///
/// A grapheme cluster (a `Character`) is drawn as one glyph, so it takes the width of its widest
/// scalar (at most two); a text-style emoji made emoji-style by U+FE0F, and a flag (a pair of
/// regional indicators), take two. Control characters take none (tables show them escaped).
enum TerminalWidth {
    /// The cells `text` takes.
    static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The cells one grapheme cluster takes.
    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var width = 0
        var regionalIndicators = 0
        var emojiVariation = false
        for scalar in scalars {
            width = max(width, of(scalar))
            if (0x1F1E6...0x1F1FF).contains(scalar.value) { regionalIndicators += 1 }
            if scalar.value == 0xFE0F { emojiVariation = true }
        }
        if regionalIndicators >= 2 { return 2 }
        if emojiVariation, let first = scalars.first, first.properties.isEmoji { return 2 }
        return width
    }

    /// The cells one scalar takes on its own.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v < 0x20 ? 0 : 1 }
        if v < 0xA0 { return 0 }  // DEL and the C1 controls
        if v == 0xAD { return 1 }  // a soft hyphen is drawn
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(v) || v == 0x200B { return 0 }  // Hangul medial vowels and final consonants; zero width space
        return isWide(v) ? 2 : 1
    }

    /// Whether a code point is East Asian Wide or Fullwidth (EastAsianWidth.txt, W and F;
    /// emoji presented as emoji are W). The CJK and plane 2 and 3 blocks count whole.
    static func isWide(_ value: UInt32) -> Bool {
        guard let first = wide.first, value >= first.lowerBound else { return false }
        var low = 0
        var high = wide.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if wide[middle].upperBound < value {
                low = middle + 1
            } else if wide[middle].lowerBound > value {
                high = middle - 1
            } else {
                return true
            }
        }
        return false
    }

    /// East Asian Wide and Fullwidth ranges, in order (Unicode 15.1).
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x2E99,
        0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x2FFF, 0x3000...0x303E, 0x3041...0x3096, 0x3099...0x30FF,
        0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E5, 0x31EF...0x31EF, 0x31F0...0x321E, 0x3220...0x3247, 0x3250...0x4DBF,
        0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
        0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB,
        0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B150...0x1B152, 0x1B164...0x1B167, 0x1B170...0x1B2FB, 0x1F004...0x1F004,
        0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
        0x1F250...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393,
        0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596,
        0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7,
        0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A,
        0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
