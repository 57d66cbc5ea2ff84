import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// A fresh directory under the system's temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-model-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `relativePath`, creating folders on the way.
    @discardableResult
    func write(_ text: String, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A `contents` file around the given entities, as Xcode writes it.
func xcodeContents(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="17709" systemVersion="20D91" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    \(body)
    </model>
    """
}

func currentVersionPlist(_ name: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>_XCCurrentVersionName</key>
    \t<string>\(name)</string>
    </dict>
    </plist>
    """
}

@Suite struct XcodeModelTests {
    static func read(_ body: String, file: String = "contents") throws -> DataModel {
        try XcodeModelFormat.read(contents: Data(xcodeContents(body).utf8), name: "Test", file: file)
    }

    /// The message of the ModelError `body` raises, or nil if it loads.
    static func errorMessage(_ body: String) -> String? {
        do {
            _ = try read(body)
            return nil
        } catch let error as ModelError {
            return error.message
        } catch {
            return "unexpected error type: \(error)"
        }
    }

    // MARK: Attributes

    @Test func readsEveryAttributeTypeWithItsDefault() throws {
        let model = try Self.read("""
            <entity name="Everything" representedClassName="Everything" syncable="YES" codeGenerationType="class">
                <attribute name="i16" optional="YES" attributeType="Integer 16" defaultValueString="7" usesScalarValueType="YES"/>
                <attribute name="i32" attributeType="Integer 32" defaultValueString="-3" usesScalarValueType="YES"/>
                <attribute name="i64" attributeType="Integer 64" defaultValueString="9000000000" usesScalarValueType="YES"/>
                <attribute name="dec" optional="YES" attributeType="Decimal" defaultValueString="1.5"/>
                <attribute name="dbl" attributeType="Double" defaultValueString="2.25" usesScalarValueType="YES"/>
                <attribute name="flt" attributeType="Float" defaultValueString="0.1" usesScalarValueType="YES"/>
                <attribute name="str" attributeType="String" defaultValueString="FFFFFF"/>
                <attribute name="yes" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
                <attribute name="no" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="date" attributeType="Date" defaultValueString="86400" usesScalarValueType="NO"/>
                <attribute name="bin" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="uuid" attributeType="UUID" defaultValueString="1975DB51-5A45-4FD6-AC54-46CA6042C710" usesScalarValueType="NO"/>
                <attribute name="uri" optional="YES" attributeType="URI" defaultValueString="https://example.com/a"/>
                <attribute name="img" optional="YES" attributeType="Transformable" valueTransformerName="UIImageTransformer" customClassName="UIImage"/>
                <attribute name="old" optional="YES" attributeType="Binary Data" syncable="YES"/>
            </entity>
            """)
        let entity = try #require(model.entity(named: "Everything"))
        let types = entity.attributes.map(\.type)
        #expect(types == [.integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .boolean,
                          .date, .binary, .uuid, .uri, .transformable, .binary])
        func defaultText(_ name: String) -> String? {
            entity.attribute(named: name)?.defaultValue.map { JSONWriter.string(JSONModelFormat.plainJSON($0)) }
        }
        #expect(defaultText("i16") == "7")
        #expect(defaultText("i32") == "-3")
        #expect(defaultText("i64") == "9000000000")
        #expect(defaultText("dec") == "\"1.5\"")
        #expect(defaultText("dbl") == "2.25")
        #expect(entity.attribute(named: "flt")?.defaultValue.flatMap { if case .double(let d) = $0 { d } else { nil } } == Double(Float(0.1)))
        #expect(defaultText("str") == "\"FFFFFF\"")
        #expect(defaultText("yes") == "true")
        #expect(defaultText("no") == "false")
        #expect(defaultText("date") == "\"2001-01-02T00:00:00Z\"")
        #expect(defaultText("bin") == nil)
        #expect(defaultText("uuid") == "\"1975DB51-5A45-4FD6-AC54-46CA6042C710\"")
        #expect(defaultText("uri") == "\"https://example.com/a\"")
        #expect(defaultText("img") == nil)
    }

    @Test func aPropertyWithoutOptionalIsRequired() throws {
        let model = try Self.read("""
            <entity name="Note">
                <attribute name="title" attributeType="String"/>
                <attribute name="contents" optional="YES" attributeType="String"/>
                <attribute name="draft" optional="NO" attributeType="Boolean"/>
                <relationship name="category" maxCount="1" deletionRule="Nullify" destinationEntity="Note"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/>
            </entity>
            """)
        let note = try #require(model.entity(named: "Note"))
        #expect(note.attribute(named: "title")?.isOptional == false)
        #expect(note.attribute(named: "contents")?.isOptional == true)
        #expect(note.attribute(named: "draft")?.isOptional == false)
        #expect(note.relationship(named: "category")?.isOptional == false)
        #expect(note.relationship(named: "tags")?.isOptional == true)
    }

    @Test func aDateDefaultIsSecondsSince2001() throws {
        let model = try Self.read(#"<entity name="E"><attribute name="d" attributeType="Date" defaultValueString="631152000"/></entity>"#)
        let value = try #require(model.entity(named: "E")?.attribute(named: "d")?.defaultValue)
        guard case .date(let date) = value else { Issue.record("not a date: \(value)"); return }
        #expect(ISO8601.string(from: date) == "2021-01-01T00:00:00Z")
    }

    // MARK: Relationships

    @Test func readsRelationshipsAndEveryDeleteRuleSpelling() throws {
        let model = try Self.read("""
            <entity name="A" representedClassName="A" syncable="YES">
                <relationship name="n" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="n" inverseEntity="B"/>
                <relationship name="c" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="B" inverseName="c" inverseEntity="B"/>
                <relationship name="d" optional="YES" toMany="YES" minCount="1" maxCount="5" deletionRule="Deny" ordered="YES" destinationEntity="B" inverseName="d" inverseEntity="B"/>
                <relationship name="x" optional="YES" minCount="1" maxCount="1" deletionRule="No Action" destinationEntity="B" syncable="YES"/>
                <relationship name="plain" optional="YES" maxCount="1" destinationEntity="B"/>
            </entity>
            <entity name="B">
                <relationship name="n" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="n" inverseEntity="A"/>
                <relationship name="c" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="c" inverseEntity="A"/>
                <relationship name="d" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="d" inverseEntity="A"/>
            </entity>
            """)
        let a = try #require(model.entity(named: "A"))
        #expect(a.relationships.map(\.deleteRule) == [.nullify, .cascade, .deny, .noAction, .nullify])
        #expect(a.relationships.map(\.isToMany) == [false, true, true, false, false])
        let d = try #require(a.relationship(named: "d"))
        #expect(d.isOrdered && d.minCount == 1 && d.maxCount == 5 && d.inverse == "d" && d.destination == "B")
        // A to-one's maxCount="1" (and an older file's minCount="1") are not kept as bounds.
        let x = try #require(a.relationship(named: "x"))
        #expect(x.minCount == 0 && x.maxCount == 0 && x.inverse == nil)
        #expect(a.relationship(named: "n")?.isOrdered == false)
    }

    // MARK: Entities

    @Test func readsInheritanceAndAbstractEntities() throws {
        let model = try Self.read("""
            <entity name="VideoItem" representedClassName="VideoItem" isAbstract="YES" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <attribute name="rating" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            </entity>
            <entity name="Movie" representedClassName="Movie" parentEntity="VideoItem" syncable="YES">
                <attribute name="duration" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
            </entity>
            <entity name="Episode" representedClassName="Episode" parentEntity="VideoItem" syncable="YES">
                <attribute name="season" attributeType="Integer 16" defaultValueString="1" usesScalarValueType="YES"/>
            </entity>
            """)
        #expect(model.entity(named: "VideoItem")?.isAbstract == true)
        #expect(model.entity(named: "Movie")?.isAbstract == false)
        #expect(model.entity(named: "Movie")?.parent == "VideoItem")
        #expect(model.entity(named: "Episode")?.attributes.map(\.name) == ["title", "rating", "season"])
        #expect(model.entity(named: "VideoItem")?.entityAndSubentities == ["VideoItem", "Movie", "Episode"])
    }

    @Test func readsConstraintsAndIndexes() throws {
        let model = try Self.read("""
            <entity name="Poi">
                <attribute name="name" attributeType="String"/>
                <attribute name="city" attributeType="String"/>
                <attribute name="identifier" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="code" optional="YES" attributeType="String" indexed="YES" syncable="YES"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="identifier"/>
                    </uniquenessConstraint>
                    <uniquenessConstraint>
                        <constraint value="name"/>
                        <constraint value="city"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
                <fetchIndex name="byName">
                    <fetchIndexElement property="name" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byCityName">
                    <fetchIndexElement property="city" type="Binary" order="ascending"/>
                    <fetchIndexElement property="name" type="Binary" order="descending"/>
                </fetchIndex>
                <fetchIndex name="byExpression">
                    <fetchIndexElement expression="canonical:(name)" expressionType="String" type="Binary" order="ascending"/>
                </fetchIndex>
                <compoundIndexes>
                    <compoundIndex>
                        <index value="city"/>
                        <index value="identifier"/>
                    </compoundIndex>
                </compoundIndexes>
            </entity>
            """)
        let poi = try #require(model.entity(named: "Poi"))
        #expect(poi.uniquenessConstraints == [["identifier"], ["name", "city"]])
        #expect(poi.indexes == [["code"], ["name"], ["city", "name"], ["city", "identifier"]])
    }

    @Test func ignoresLayoutConfigurationsFetchedPropertiesAndTransients() throws {
        let model = try Self.read("""
            <entity name="Task" representedClassName="Task" syncable="YES">
                <attribute name="identifier" optional="YES" attributeType="UUID" usesScalarValueType="NO" syncable="YES">
                    <userInfo>
                        <entry key="note" value="kept out"/>
                    </userInfo>
                </attribute>
                <attribute name="cached" optional="YES" transient="YES" attributeType="String"/>
                <attribute name="scratch" optional="YES" transient="YES"/>
                <fetchedProperty name="notes" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="LocalNote" predicateString="taskIdentifier == $FETCH_SOURCE.identifier"/>
                </fetchedProperty>
                <userInfo/>
            </entity>
            <entity name="LocalNote" representedClassName="LocalNote" syncable="YES">
                <attribute name="taskIdentifier" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
            </entity>
            <fetchRequest name="AllTasks" entity="Task"/>
            <configuration name="Local">
                <memberEntity name="LocalNote"/>
            </configuration>
            <configuration name="Cloud" usedWithCloudKit="YES">
                <memberEntity name="Task"/>
            </configuration>
            <elements>
                <element name="Task" positionX="-63" positionY="-18" width="128" height="74"/>
                <element name="LocalNote" positionX="-54" positionY="9" width="128" height="44"/>
            </elements>
            """)
        #expect(model.entities.map(\.name) == ["Task", "LocalNote"])
        #expect(model.entity(named: "Task")?.propertyNames == ["identifier"])
    }

    // MARK: Bundles and versions

    @Test func aBundleLoadsTheVersionXccurrentversionNames() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        try dir.write(xcodeContents(#"<entity name="Category"><attribute name="name" attributeType="String"/></entity>"#),
                      to: "Notes.xcdatamodeld/Notes.xcdatamodel/contents")
        try dir.write(xcodeContents("""
            <entity name="Category">
                <attribute name="name" attributeType="String"/>
                <attribute name="colorAsHex" attributeType="String" defaultValueString="FFFFFF"/>
            </entity>
            """), to: "Notes.xcdatamodeld/Notes 2.xcdatamodel/contents")
        let bundle = dir.url.appendingPathComponent("Notes.xcdatamodeld")

        // Without .xccurrentversion, two versions are ambiguous.
        #expect(throws: ModelError.self) { try ModelFile.load(bundle) }
        do {
            _ = try ModelFile.load(bundle)
        } catch {
            #expect(error.message.contains("no .xccurrentversion"))
            #expect(error.message.contains("Notes 2.xcdatamodel"))
        }

        try dir.write(currentVersionPlist("Notes 2.xcdatamodel"), to: "Notes.xcdatamodeld/.xccurrentversion")
        let current = try ModelFile.load(bundle)
        #expect(current.name == "Notes")
        #expect(current.entity(named: "Category")?.attributes.map(\.name) == ["name", "colorAsHex"])

        try dir.write(currentVersionPlist("Notes.xcdatamodel"), to: "Notes.xcdatamodeld/.xccurrentversion")
        #expect(try ModelFile.load(bundle).entity(named: "Category")?.attributes.map(\.name) == ["name"])

        // One version folder loaded directly.
        let v2 = try ModelFile.load(bundle.appendingPathComponent("Notes 2.xcdatamodel"))
        #expect(v2.name == "Notes 2")
        #expect(v2.entity(named: "Category")?.attribute(named: "colorAsHex") != nil)
    }

    @Test func aBundleWithOneVersionNeedsNoXccurrentversion() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        try dir.write(xcodeContents(#"<entity name="Potato"><attribute name="variety" optional="YES" attributeType="String"/></entity>"#),
                      to: "TaterRater.xcdatamodeld/TaterRater.xcdatamodel/contents")
        let model = try ModelFile.load(dir.url.appendingPathComponent("TaterRater.xcdatamodeld"))
        #expect(model.name == "TaterRater")
        #expect(model.entities.map(\.name) == ["Potato"])
    }

    static func loadError(_ url: URL) -> String? {
        do {
            _ = try ModelFile.load(url)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func bundleErrorsNameTheFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let contents = xcodeContents(#"<entity name="A"/>"#)

        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("Empty.xcdatamodeld"), withIntermediateDirectories: true)
        let empty = Self.loadError(dir.url.appendingPathComponent("Empty.xcdatamodeld"))
        #expect(empty?.contains("Empty.xcdatamodeld: the bundle holds no .xcdatamodel version") == true)

        try dir.write(contents, to: "Missing.xcdatamodeld/Missing.xcdatamodel/contents")
        try dir.write(currentVersionPlist("Missing 2.xcdatamodel"), to: "Missing.xcdatamodeld/.xccurrentversion")
        let missing = Self.loadError(dir.url.appendingPathComponent("Missing.xcdatamodeld"))
        #expect(missing?.contains(".xccurrentversion: the current version 'Missing 2.xcdatamodel' is not in the bundle (versions: Missing.xcdatamodel)") == true)

        try dir.write(contents, to: "BadPlist.xcdatamodeld/BadPlist.xcdatamodel/contents")
        try dir.write("<plist><dict><key>", to: "BadPlist.xcdatamodeld/.xccurrentversion")
        let badPlist = Self.loadError(dir.url.appendingPathComponent("BadPlist.xcdatamodeld"))
        #expect(badPlist?.contains("BadPlist.xcdatamodeld/.xccurrentversion: not a property list") == true)

        try dir.write(contents, to: "NoName.xcdatamodeld/NoName.xcdatamodel/contents")
        try dir.write(currentVersionPlist("x").replacingOccurrences(of: "_XCCurrentVersionName", with: "Other"), to: "NoName.xcdatamodeld/.xccurrentversion")
        let noName = Self.loadError(dir.url.appendingPathComponent("NoName.xcdatamodeld"))
        #expect(noName?.contains("no _XCCurrentVersionName") == true)

        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("Old.xcdatamodel"), withIntermediateDirectories: true)
        let old = Self.loadError(dir.url.appendingPathComponent("Old.xcdatamodel"))
        #expect(old?.contains("Old.xcdatamodel: the model has no contents file") == true)

        let nowhere = Self.loadError(dir.url.appendingPathComponent("Nowhere.xcdatamodel"))
        #expect(nowhere?.contains("Nowhere.xcdatamodel: no such model folder") == true)

        let broken = try dir.write("<model><entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Strin\"/></entity></model>",
                                   to: "Broken.xcdatamodel/contents")
        let brokenMessage = Self.loadError(broken.deletingLastPathComponent())
        #expect(brokenMessage == "\(broken.path):2: attribute A.x: unknown attributeType 'Strin'; did you mean 'String'?")
    }

    // MARK: ModelFile

    @Test func modelFileChoosesTheReaderByExtension() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanUp() }
        let json = try dir.write(#"{"entities": [{"name": "Tag", "attributes": [{"name": "name", "type": "String"}]}]}"#, to: "Tags.json")
        let model = try ModelFile.load(json)
        #expect(model.name == "Tags")
        #expect(model.entities.map(\.name) == ["Tag"])

        let badJSON = try dir.write(#"{"entities": [{"name": "Tag", "atributes": []}]}"#, to: "Bad.json")
        let badMessage = Self.loadError(badJSON)
        #expect(badMessage?.hasPrefix("\(badJSON.path): model JSON: entity Tag: unknown field \"atributes\"") == true)

        let text = try dir.write("hello", to: "model.txt")
        let message = Self.loadError(text)
        #expect(message?.contains("model.txt: cannot load a model from a .txt file") == true)
        #expect(message?.contains(".json") == true && message?.contains(".xcdatamodel") == true && message?.contains(".xcdatamodeld") == true)

        let missing = Self.loadError(dir.url.appendingPathComponent("absent.json"))
        #expect(missing?.contains("absent.json: cannot read") == true)
    }

    // MARK: Errors inside contents

    static let invalidContents: [(String, String)] = [
        (#"<entity name="A"><attribute name="n" attributeType="Integr 16"/></entity>"#,
         "test/contents:3: attribute A.n: unknown attributeType 'Integr 16'; did you mean 'Integer 16'?"),
        (#"<entity name="A"><attribute name="n"/></entity>"#,
         "test/contents:3: attribute A.n has no attributeType"),
        (#"<entity name="A"><attribute attributeType="String"/></entity>"#,
         "test/contents:3: entity A: an <attribute> has no name"),
        (#"<entity><attribute name="n" attributeType="String"/></entity>"#,
         "test/contents:3: an <entity> has no name"),
        ("<entity name=\"A\">\n<attribute name=\"n\" attributeType=\"Integer 16\" defaultValueString=\"70000\"/></entity>",
         "test/contents:4: attribute A.n: defaultValueString '70000': 70000 is out of range for Integer 16"),
        (#"<entity name="A"><attribute name="b" attributeType="Boolean" defaultValueString="maybe"/></entity>"#,
         "test/contents:3: attribute A.b: defaultValueString 'maybe' is not a valid Boolean (YES or NO)"),
        (#"<entity name="A"><attribute name="d" attributeType="Date" defaultValueString="2021-01-01"/></entity>"#,
         "test/contents:3: attribute A.d: defaultValueString '2021-01-01' is not a valid Date (seconds since 2001-01-01 00:00:00 UTC)"),
        (#"<entity name="A"><attribute name="u" attributeType="UUID" defaultValueString="not-a-uuid"/></entity>"#,
         "test/contents:3: attribute A.u: defaultValueString 'not-a-uuid': 'not-a-uuid' is not a UUID"),
        (#"<entity name="A"><attribute name="n" optional="SURE" attributeType="String"/></entity>"#,
         "test/contents:3: attribute A.n: optional=\"SURE\" is not YES or NO"),
        (#"<entity name="A"><relationship name="r" maxCount="1" deletionRule="Explode" destinationEntity="A"/></entity>"#,
         "test/contents:3: relationship A.r: unknown deletionRule 'Explode' (Nullify, Cascade, Deny, No Action)"),
        (#"<entity name="A"><relationship name="r" maxCount="1" deletionRule="Nullify"/></entity>"#,
         "test/contents:3: relationship A.r has no destinationEntity"),
        (#"<entity name="A"><relationship name="r" toMany="YES" maxCount="-2" destinationEntity="A"/></entity>"#,
         "test/contents:3: relationship A.r: maxCount=\"-2\" is not a non-negative integer"),
        (#"<entity name="A"><relationship name="r" maxCount="1" destinationEntity="A" inverseName="r" inverseEntity="B"/></entity>"#,
         "test/contents:3: relationship A.r: inverseEntity 'B' is not its destination 'A'"),
        (#"<entity name="A"><uniquenessConstraints><uniquenessConstraint></uniquenessConstraint></uniquenessConstraints></entity>"#,
         "test/contents:3: entity A: an empty <uniquenessConstraint>"),
        (#"<entity name="A"><uniquenessConstraints><uniquenessConstraint><constraint/></uniquenessConstraint></uniquenessConstraints></entity>"#,
         "test/contents:3: entity A: a <constraint> has no value"),
        (#"<entity name="A" isAbstract="sometimes"/>"#,
         "test/contents:3: entity A: isAbstract=\"sometimes\" is not YES or NO"),
        // Model-level validation, after parsing: the file is named.
        (#"<entity name="A" parentEntity="Nope"/>"#,
         "test/contents: entity A: parent entity 'Nope' does not exist"),
        (#"<entity name="A"><relationship name="b" maxCount="1" destinationEntity="B"/></entity>"#,
         "test/contents: relationship A.b: destination entity 'B' does not exist"),
        (#"<entity name="A"/><entity name="A"/>"#,
         "test/contents: entity A is declared twice"),
        (#"<entity name="A"><uniquenessConstraints><uniquenessConstraint><constraint value="missing"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
         "test/contents: entity A: uniqueness constraint names unknown property 'missing'"),
        (#"<entity name="A"><fetchIndex name="i"><fetchIndexElement property="missing" type="Binary" order="ascending"/></fetchIndex></entity>"#,
         "test/contents: entity A: index names unknown property 'missing'"),
    ]

    @Test(arguments: invalidContents)
    func invalidContentsAreErrorsThatSayWhereAndWhy(_ body: String, _ expected: String) {
        do {
            _ = try XcodeModelFormat.read(contents: Data(xcodeContents(body).utf8), name: "Test", file: "test/contents")
            Issue.record("loaded; expected: \(expected)")
        } catch {
            #expect(error.message.hasPrefix(expected), "got: \(error.message)")
        }
    }

    @Test func malformedXMLIsAnErrorWithItsLine() {
        let cases: [(String, String)] = [
            ("<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\">\n</entity></model>", "f:4: malformed XML"),
            ("", "f:"),
            ("not xml at all", "f:1: malformed XML"),
            ("<plist><dict/></plist>", "f:1: not a Core Data model: the root element is <plist>, not <model>"),
            ("<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\" name=\"B\"/></model>", "f:3: malformed XML"),
            ("<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n<!ENTITY a \"aaaa\">\n]>\n<model/>", "f:3: malformed XML: entity declarations"),
        ]
        for (text, expected) in cases {
            do {
                _ = try XcodeModelFormat.read(contents: Data(text.utf8), name: "M", file: "f")
                Issue.record("loaded \(text.debugDescription)")
            } catch {
                #expect(error.message.hasPrefix(expected), "\(text.debugDescription) gave: \(error.message)")
            }
        }
    }

    /// A processing instruction other than the XML declaration is an error with its line, never
    /// a crash (found by fuzz-models when FoundationXML read these files: it passed a null pointer to
    /// strlen for `<?x?>`).
    @Test func processingInstructionsAreErrors() {
        for text in ["<?x?><model/>", "<?xml version=\"1.0\"?>\n<?x?>\n<model/>", "<?xml version=\"1.0\"?>\n<model>\n<?xml-stylesheet href=\"a\"?></model>",
                     "<?xml version=\"1.0\"?><model><entity name=\"A\"><?pi?></entity></model>"] {
            do {
                _ = try XcodeModelFormat.read(contents: Data(text.utf8), name: "M", file: "f")
                Issue.record("loaded \(text.debugDescription)")
            } catch {
                #expect(error.message.contains("malformed XML: processing instructions"), "\(text.debugDescription) gave: \(error.message)")
            }
        }
        #expect(throws: ModelError("f:3: malformed XML: processing instructions (<?...?>) other than the XML declaration are not allowed in a model file")) {
            try XcodeModelFormat.read(contents: Data("<?xml version=\"1.0\"?>\n<model>\n<?x?></model>".utf8), name: "M", file: "f")
        }
    }

    @Test func textThatIsNotUTF8IsAnError() {
        let bytes = Array("<model>\n<entity name=\"A".utf8) + [0xFF] + Array("\"/></model>".utf8)
        do {
            _ = try XcodeModelFormat.read(contents: Data(bytes), name: "M", file: "f")
            Issue.record("loaded")
        } catch {
            #expect(error.message == "f:2: malformed XML: the text is not UTF-8")
        }
    }

    /// Every prefix of a real contents file (and a few byte flips) loads or fails cleanly.
    @Test func truncatedAndDamagedFilesNeverCrash() throws {
        let text = xcodeContents("""
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="title" attributeType="String" syncable="YES"/>
                <attribute name="createdAt" attributeType="Date" defaultValueString="0" usesScalarValueType="NO"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
            </entity>
            <elements><element name="Note" positionX="0" positionY="0" width="128" height="89"/></elements>
            """)
        let bytes = Array(text.utf8)
        #expect(try XcodeModelFormat.read(contents: Data(bytes), name: "M").entities.count == 2)
        var failed = 0
        for length in stride(from: 0, to: bytes.count, by: 3) {
            do {
                _ = try XcodeModelFormat.read(contents: Data(bytes[0..<length]), name: "M", file: "f")
            } catch {
                #expect(error.message.hasPrefix("f"))
                failed += 1
            }
        }
        #expect(failed > 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var damaged = bytes
            let position = Int.random(in: 0..<damaged.count, using: &generator)
            damaged[position] = [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), 0, 0xFF].randomElement(using: &generator) ?? 0
            _ = try? XcodeModelFormat.read(contents: Data(damaged), name: "M")
        }
    }
}
