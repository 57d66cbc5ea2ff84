/// The XML of an Xcode model's `contents` file, read as its elements' starts and ends, each
/// with its attributes, in document order.
///
/// A model file is plain XML: an optional declaration, comments, elements with attributes, and
/// whitespace. The scanner checks what makes a file well-formed (names, quoting, matching end
/// tags, one root, references such as `&amp;` and `&#233;`) and reads no text content, DTD,
/// namespace or external entity: `<!DOCTYPE …>` is skipped, entity declarations and
/// processing instructions other than the declaration are refused. It never traps: every
/// problem is a ``Malformed`` with its 1-based line. (Sift read these files with FoundationXML
/// before, which linked libxml2 and ICU into every `sift` process, about 1 ms of each start,
/// and trapped on some malformed input.)
struct ModelXMLScanner {
    enum Event: Equatable {
        case start(name: String, attributes: [String: String])
        case end(name: String)
    }

    struct Malformed: Error, Equatable {
        let line: Int
        let reason: String
    }

    private let bytes: [UInt8]
    private var position = 0
    /// The line of the byte at ``position``; after an event, the line its tag ended on.
    private(set) var line = 1
    /// The names of the elements open, outermost first.
    private var open: [String] = []
    private var sawRoot = false
    /// The end of an empty-element tag (`<a/>`), reported after its start.
    private var pendingEnd: String?

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }  // a byte-order mark
    }

    /// The next element start or end; nil at the end of a well-formed document.
    mutating func next() throws(Malformed) -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            return .end(name: name)
        }
        while position < bytes.count {
            guard bytes[position] == UInt8(ascii: "<") else {
                try skipText()
                continue
            }
            if starts(with: "<?") {
                try skipProcessingInstruction()
            } else if starts(with: "<!--") {
                try skip(past: "-->", what: "a comment (<!--) is not closed")
            } else if starts(with: "<![CDATA[") {
                guard !open.isEmpty else { throw fail("CDATA outside the root element") }
                try skip(past: "]]>", what: "a CDATA section is not closed")
            } else if starts(with: "<!DOCTYPE") {
                guard !sawRoot else { throw fail("<!DOCTYPE after the root element") }
                try skipDocumentType()
            } else if starts(with: "<!") {
                throw fail("'<!' that is neither a comment, CDATA nor <!DOCTYPE")
            } else if starts(with: "</") {
                return try endTag()
            } else {
                return try startTag()
            }
        }
        if let name = open.last { throw fail("the element <\(name)> is not closed at the end of the file") }
        guard sawRoot else { throw fail(bytes.isEmpty ? "the file is empty" : "no element") }
        return nil
    }

    // MARK: Tags

    private mutating func startTag() throws(Malformed) -> Event {
        if sawRoot && open.isEmpty { throw fail("a second root element after the first one closed") }
        position += 1
        let name = try readName(what: "an element name after '<'")
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = skipSpace()
            guard position < bytes.count else { throw fail("the tag <\(name) is not closed") }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            if starts(with: "/>") {
                position += 2
                pendingEnd = name
                break
            }
            guard hadSpace else { throw fail("expected a space, '>' or '/>' in the tag <\(name)>") }
            let key = try readName(what: "an attribute name in the tag <\(name)>")
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
                throw fail("the attribute \(key) of <\(name)> has no '=' and value")
            }
            position += 1
            skipSpace()
            let value = try readAttributeValue(key)
            guard attributes.updateValue(value, forKey: key) == nil else {
                throw fail("the attribute \(key) is given twice in <\(name)>")
            }
        }
        open.append(name)
        sawRoot = true
        return .start(name: name, attributes: attributes)
    }

    private mutating func endTag() throws(Malformed) -> Event {
        position += 2
        let name = try readName(what: "an element name after '</'")
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else { throw fail("the end tag </\(name) is not closed") }
        position += 1
        guard let innermost = open.last else { throw fail("</\(name)> closes no element") }
        guard innermost == name else { throw fail("</\(name)> where <\(innermost)> is open") }
        open.removeLast()
        return .end(name: name)
    }

    /// An XML name: letters, digits, `_`, `:`, `-`, `.` and any non-ASCII character, not
    /// starting with a digit, `-` or `.`.
    private mutating func readName(what: String) throws(Malformed) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position], first: position == start) { position += 1 }
        guard position > start else { throw fail("expected \(what)") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default:
            return false
        }
    }

    /// A quoted attribute value, its references replaced and each tab, newline and carriage
    /// return read as a space (XML's attribute-value normalization).
    private mutating func readAttributeValue(_ key: String) throws(Malformed) -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw fail("the value of the attribute \(key) is not in quotes")
        }
        let quote = bytes[position]
        position += 1
        var value: [UInt8] = []
        while true {
            guard position < bytes.count else { throw fail("the value of the attribute \(key) is not closed") }
            let byte = bytes[position]
            switch byte {
            case quote:
                position += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw fail("'<' in the value of the attribute \(key) (write &lt;)")
            case UInt8(ascii: "&"):
                value.append(contentsOf: try readReference())
            case 0x0A:
                line += 1
                value.append(0x20)
                position += 1
            case 0x09, 0x0D:
                value.append(0x20)
                position += 1
            default:
                value.append(byte)
                position += 1
            }
        }
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` or `&#xN;` at ``position``, as UTF-8.
    private mutating func readReference() throws(Malformed) -> [UInt8] {
        let start = position
        guard let end = bytes[start...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw fail("'&' that starts no reference (write &amp;)")
        }
        let body = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        position = end + 1
        switch body {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var code: UInt32?
            if body.hasPrefix("#x") {
                code = UInt32(body.dropFirst(2), radix: 16)
            } else if body.hasPrefix("#") {
                code = UInt32(body.dropFirst(), radix: 10)
            }
            guard let code, code != 0, let scalar = Unicode.Scalar(code) else {
                throw fail("&\(body); is not a reference XML knows (&amp; &lt; &gt; &quot; &apos; &#N;)")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    // MARK: What is skipped

    /// Text: whitespace outside the root element, anything but `<` (with well-formed
    /// references) inside it.
    private mutating func skipText() throws(Malformed) {
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            let byte = bytes[position]
            if open.isEmpty {
                guard byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D else {
                    throw fail(sawRoot ? "text after the root element" : "text before the root element")
                }
            } else if byte == UInt8(ascii: "&") {
                _ = try readReference()
                continue
            }
            if byte == 0x0A { line += 1 }
            position += 1
        }
    }

    /// The XML declaration (`<?xml …?>`, before anything else); any other processing
    /// instruction is refused.
    private mutating func skipProcessingInstruction() throws(Malformed) {
        let start = position
        position += 2
        let target = (try? readName(what: "")) ?? ""
        guard target.lowercased() == "xml", !sawRoot else {
            position = start
            throw fail("processing instructions (<?...?>) other than the XML declaration are not allowed in a model file")
        }
        try skip(past: "?>", what: "the XML declaration (<?xml) is not closed")
    }

    /// `<!DOCTYPE name …>`, with an internal subset in brackets if any.
    private mutating func skipDocumentType() throws(Malformed) {
        var inSubset = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A { line += 1 }
            if inSubset, byte == UInt8(ascii: "<"), starts(with: "<!ENTITY") {
                throw fail("entity declarations (<!ENTITY) are not allowed in a model file")
            }
            position += 1
            switch byte {
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]"): inSubset = false
            case UInt8(ascii: ">") where !inSubset: return
            default: break
            }
        }
        throw fail("<!DOCTYPE is not closed")
    }

    /// Moves past `terminator`, counting lines; `what` is the error at the end of the file.
    private mutating func skip(past terminator: String, what: String) throws(Malformed) {
        let needle = Array(terminator.utf8)
        while position < bytes.count {
            if bytes[position] == needle[0], bytes[position...].starts(with: needle) {
                position += needle.count
                return
            }
            if bytes[position] == 0x0A { line += 1 }
            position += 1
        }
        throw fail(what)
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case 0x0A: line += 1
            case 0x20, 0x09, 0x0D: break
            default: return position > start
            }
            position += 1
        }
        return position > start
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { prefix in
            var i = 0
            while i < count {
                if bytes[position + i] != prefix[i] { return false }
                i += 1
            }
            return true
        }
    }

    private func fail(_ reason: String) -> Malformed { Malformed(line: line, reason: reason) }
}
