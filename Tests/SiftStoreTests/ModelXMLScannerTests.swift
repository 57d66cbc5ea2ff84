import Testing
@testable import SiftStore

/// The XML scanner of model files: the events of well-formed text, and an error with its line
/// for every kind of malformed text (never a trap).
@Suite struct ModelXMLScannerTests {
    typealias Event = ModelXMLScanner.Event

    static func events(_ text: String) throws(ModelXMLScanner.Malformed) -> [Event] {
        var scanner = ModelXMLScanner(Array(text.utf8))
        var events: [Event] = []
        while let event = try scanner.next() { events.append(event) }
        return events
    }

    static let wellFormed: [(String, [Event])] = [
        ("<model/>", [.start(name: "model", attributes: [:]), .end(name: "model")]),
        ("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<!-- Xcode -->\n<model type=\"com.apple.IDECoreDataModeler.DataModel\"></model>\n",
         [.start(name: "model", attributes: ["type": "com.apple.IDECoreDataModeler.DataModel"]), .end(name: "model")]),
        ("<model><entity name='A' parentEntity = \"B\" ><attribute name=\"x\"/></entity></model>",
         [.start(name: "model", attributes: [:]), .start(name: "entity", attributes: ["name": "A", "parentEntity": "B"]),
          .start(name: "attribute", attributes: ["name": "x"]), .end(name: "attribute"), .end(name: "entity"), .end(name: "model")]),
        ("<model><entry key=\"a&amp;b &lt;&gt; &quot;&apos; &#233;&#x20AC;\" value=\"x\ny\tz\"/></model>",
         [.start(name: "model", attributes: [:]), .start(name: "entry", attributes: ["key": "a&b <> \"' é€", "value": "x y z"]),
          .end(name: "entry"), .end(name: "model")]),
        ("<!DOCTYPE model [\n<!ELEMENT model ANY>\n]>\n<model>text &amp; <![CDATA[ <not a tag> ]]> more</model>",
         [.start(name: "model", attributes: [:]), .end(name: "model")]),
        ("<m:model xmlns:m=\"u\" é=\"1\"><_a-b.c/></m:model>",
         [.start(name: "m:model", attributes: ["xmlns:m": "u", "é": "1"]), .start(name: "_a-b.c", attributes: [:]), .end(name: "_a-b.c"),
          .end(name: "m:model")]),
    ]

    @Test(arguments: wellFormed)
    func wellFormedTextGivesItsElements(_ text: String, _ expected: [Event]) throws {
        #expect(try Self.events(text) == expected)
    }

    static let malformed: [(String, Int, String)] = [
        ("", 1, "the file is empty"),
        ("   \n ", 2, "no element"),
        ("not xml", 1, "text before the root element"),
        ("<model/>\nx", 2, "text after the root element"),
        ("<model/><model/>", 1, "a second root element"),
        ("<model>\n<entity>\n</model>", 3, "</model> where <entity> is open"),
        ("<model>\n<entity>", 2, "the element <entity> is not closed"),
        ("</model>", 1, "</model> closes no element"),
        ("<model\n a=\"1\" a=\"2\"/>", 2, "the attribute a is given twice"),
        ("<model a=1/>", 1, "the value of the attribute a is not in quotes"),
        ("<model a/>", 1, "the attribute a of <model> has no '='"),
        ("<model a=\"1\"b=\"2\"/>", 1, "expected a space"),
        ("<model a=\"x<y\"/>", 1, "'<' in the value"),
        ("<model a=\"x", 1, "the value of the attribute a is not closed"),
        ("<model a=\"&nbsp;\"/>", 1, "&nbsp; is not a reference"),
        ("<model a=\"&#0;\"/>", 1, "&#0; is not a reference"),
        ("<model a=\"&#xD800;\"/>", 1, "&#xD800; is not a reference"),
        ("<model>a & b</model>", 1, "'&' that starts no reference"),
        ("<1model/>", 1, "expected an element name"),
        ("< model/>", 1, "expected an element name"),
        ("<model", 1, "the tag <model is not closed"),
        ("<model></model", 1, "the end tag </model is not closed"),
        ("<model><!-- open", 1, "a comment (<!--) is not closed"),
        ("<![CDATA[x]]><model/>", 1, "CDATA outside the root element"),
        ("<model><![CDATA[x</model>", 1, "a CDATA section is not closed"),
        ("<!DOCTYPE model [\n<!ENTITY a \"aaaa\">\n]><model/>", 2, "entity declarations (<!ENTITY) are not allowed"),
        ("<!DOCTYPE model", 1, "<!DOCTYPE is not closed"),
        ("<model/><!DOCTYPE model>", 1, "<!DOCTYPE after the root element"),
        ("<model><!ELEMENT x></model>", 1, "'<!' that is neither"),
        ("<?x?><model/>", 1, "processing instructions"),
        ("<model>\n<?xml version=\"1.0\"?></model>", 2, "processing instructions"),
        ("<?xml version=\"1.0\"", 1, "the XML declaration (<?xml) is not closed"),
    ]

    @Test(arguments: malformed)
    func malformedTextIsAnErrorWithItsLine(_ text: String, _ line: Int, _ reason: String) {
        do {
            let events = try Self.events(text)
            Issue.record("read \(text.debugDescription) as \(events)")
        } catch {
            #expect(error.line == line, "\(text.debugDescription): \(error.reason)")
            #expect(error.reason.hasPrefix(reason), "\(text.debugDescription): \(error.reason)")
        }
    }

    /// Every prefix of a document, and every one of its bytes replaced by each byte that
    /// matters to XML, scans to the end or to an error.
    @Test func everyPrefixAndEveryDamageEndsCleanly() {
        let text = Array("<?xml version=\"1.0\"?>\n<model a=\"&amp;\"><!-- c --><e b='1'>x&#65;<![CDATA[y]]></e></model>\n".utf8)
        var documents = (0...text.count).map { Array(text[..<$0]) }
        for i in text.indices {
            for byte in Array("<>&;\"'/!?[]-= \n".utf8) + [0x00, 0xFF] {
                var damaged = text
                damaged[i] = byte
                documents.append(damaged)
            }
        }
        var finished = 0
        for document in documents {
            var scanner = ModelXMLScanner(document)
            var steps = 0
            do {
                while try scanner.next() != nil {
                    steps += 1
                    if steps > 100 { Issue.record("no end: \(document)"); break }
                }
                finished += 1
            } catch {
                #expect(error.line >= 1 && error.line <= 4)  // two lines and a newline put in
            }
        }
        #expect(finished > 0 && finished < documents.count)
    }
}
