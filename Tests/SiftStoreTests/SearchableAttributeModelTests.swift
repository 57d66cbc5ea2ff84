import Foundation
import SiftEvaluation
import Testing
@testable import SiftStore

/// A String attribute can be marked searchable in both model formats; the JSON writer keeps the
/// mark; any other type is refused with a message that says so.
@Suite struct SearchableAttributeModelTests {
    @Test func theJSONFormatReadsAndWritesSearchable() throws {
        let json = #"""
        {"name": "People", "entities": [{"name": "Person", "attributes": [
           {"name": "name", "type": "String", "searchable": true},
           {"name": "city", "type": "String", "searchable": false},
           {"name": "note", "type": "String"}]}]}
        """#
        let model = try JSONModelFormat.read(Data(json.utf8))
        let attributes = try #require(model.entity(named: "Person")).attributes
        #expect(attributes.map(\.isSearchable) == [true, false, false])
        let written = JSONModelFormat.write(model)
        #expect(written.components(separatedBy: "\"searchable\"").count == 2)
        let again = try JSONModelFormat.read(Data(written.utf8))
        #expect(try #require(again.entity(named: "Person")).attributes.map(\.isSearchable) == [true, false, false])
    }

    @Test(arguments: [
        (#"{"name": "n", "type": "Integer 64", "searchable": true}"#,
         "entity Person: attribute n (Integer 64) cannot be searchable: only String attributes can"),
        (#"{"name": "n", "type": "String", "searchable": "yes"}"#, "searchable"),
    ])
    func onlyStringAttributesAreSearchable(_ attribute: String, _ message: String) {
        let json = #"{"name": "People", "entities": [{"name": "Person", "attributes": ["# + attribute + "]}]}"
        #expect(throws: ModelError.self) { try JSONModelFormat.read(Data(json.utf8)) }
        do {
            _ = try JSONModelFormat.read(Data(json.utf8))
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func anXcodeModelMarksSearchableInTheAttributesUserInfo() throws {
        let model = try XcodeModelTests.read("""
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String">
                    <userInfo>
                        <entry key="note" value="ignored"/>
                        <entry key="siftSearchable" value="YES"/>
                    </userInfo>
                </attribute>
                <attribute name="city" optional="YES" attributeType="String">
                    <userInfo>
                        <entry key="siftSearchable" value="1"/>
                    </userInfo>
                </attribute>
                <attribute name="street" optional="YES" attributeType="String">
                    <userInfo>
                        <entry key="siftSearchable" value="NO"/>
                    </userInfo>
                </attribute>
                <attribute name="cached" optional="YES" transient="YES" attributeType="String">
                    <userInfo>
                        <entry key="siftSearchable" value="YES"/>
                    </userInfo>
                </attribute>
                <attribute name="zip" optional="YES" attributeType="String"/>
                <relationship name="friend" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person">
                    <userInfo>
                        <entry key="siftSearchable" value="YES"/>
                    </userInfo>
                </relationship>
                <userInfo>
                    <entry key="siftSearchable" value="YES"/>
                </userInfo>
            </entity>
            """)
        let attributes = try #require(model.entity(named: "Person")).attributes
        #expect(attributes.map(\.name) == ["name", "city", "street", "zip"])
        #expect(attributes.map(\.isSearchable) == [true, true, false, false])
    }

    @Test(arguments: [
        ("""
         <entity name="Person"><attribute name="age" optional="YES" attributeType="Integer 64">
         <userInfo><entry key="siftSearchable" value="YES"/></userInfo></attribute></entity>
         """, "attribute age (Integer 64) cannot be searchable: only String attributes can"),
        ("""
         <entity name="Person"><attribute name="name" optional="YES" attributeType="String">
         <userInfo><entry key="siftSearchable" value="maybe"/></userInfo></attribute></entity>
         """, "attribute Person.name: user info siftSearchable: value=\"maybe\" is not YES or NO"),
    ])
    func xcodeSearchableErrorsSayWhy(_ body: String, _ message: String) {
        let error = XcodeModelTests.errorMessage(body)
        #expect(error?.contains(message) == true, "\(error ?? "no error")")
    }
}
