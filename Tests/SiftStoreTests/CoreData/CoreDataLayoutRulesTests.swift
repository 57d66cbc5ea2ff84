import Testing
@testable import SiftStore

/// ``CoreDataLayout`` on small hand-made models: the rules the fixtures confirm (numbering,
/// column groups, clash numbers, entity and order columns), and the ones no fixture shows
/// (reflexive and ordered many-to-many, a to-many without inverse), which
/// docs/COREDATA-STORES.md marks as unconfirmed.
@Suite struct CoreDataLayoutRulesTests {
    static func model(_ entities: [EntityDescription]) throws -> DataModel { try DataModel(entities: entities) }

    @Test func numberingIsDepthFirstInCaseInsensitiveOrder() throws {
        let layout = CoreDataLayout(try Self.model([
            EntityDescription(name: "beta"), EntityDescription(name: "Alpha"), EntityDescription(name: "NWThing"), EntityDescription(name: "Network"),
            EntityDescription(name: "Zed", parent: "Alpha"), EntityDescription(name: "Bee", parent: "Alpha"), EntityDescription(name: "Ant", parent: "Zed"),
        ]))
        #expect(layout.entities.map { "\($0.number):\($0.name):\($0.superNumber)" }
                == ["1:Alpha:0", "2:Bee:1", "3:Zed:1", "4:Ant:3", "5:beta:0", "6:Network:0", "7:NWThing:0"])
        #expect(layout.entity(named: "Zed")?.kindNumbers == [3, 4])
        #expect(layout.entity(named: "Ant")?.table == "ZALPHA")
        #expect(layout.tables.map(\.name) == ["ZALPHA", "ZBETA", "ZNETWORK", "ZNWTHING"])
    }

    @Test func columnsGroupedByKindThenEntityThenName() throws {
        let layout = CoreDataLayout(try Self.model([
            EntityDescription(name: "Item", attributes: [
                AttributeDescription(name: "when", type: .date), AttributeDescription(name: "count", type: .integer32),
                AttributeDescription(name: "blob", type: .binary), AttributeDescription(name: "thing", type: .transformable), AttributeDescription(name: "link", type: .uri),
                AttributeDescription(name: "flag", type: .boolean), AttributeDescription(name: "amount", type: .decimal), AttributeDescription(name: "id", type: .uuid),
            ]),
            EntityDescription(name: "Memo", parent: "Item", attributes: [AttributeDescription(name: "title", type: .string)],
                              relationships: [RelationshipDescription(name: "owner", destination: "Owner", inverse: "memos")]),
            EntityDescription(name: "Note", parent: "Item", attributes: [AttributeDescription(name: "title", type: .string), AttributeDescription(name: "age", type: .integer16)],
                              relationships: [RelationshipDescription(name: "owner", destination: "Owner", inverse: "notes")]),
            EntityDescription(name: "Owner", relationships: [
                RelationshipDescription(name: "memos", destination: "Memo", isToMany: true, inverse: "owner", isOrdered: true),
                RelationshipDescription(name: "notes", destination: "Note", isToMany: true, inverse: "owner"),
                RelationshipDescription(name: "favourite", destination: "Item"),
            ]),
        ]))
        let item = try #require(layout.table(named: "ZITEM"))
        #expect(item.columns.map { "\($0.name) \($0.declaredType)" } == [
            "Z_PK INTEGER", "Z_ENT INTEGER", "Z_OPT INTEGER",
            "ZCOUNT INTEGER", "ZFLAG INTEGER", "ZOWNER INTEGER", "Z_FOK_OWNER INTEGER", "ZAGE INTEGER", "ZOWNER1 INTEGER",
            "ZAMOUNT DECIMAL", "ZWHEN TIMESTAMP", "ZTITLE VARCHAR", "ZTITLE1 VARCHAR", "ZLINK VARCHAR", "ZID BLOB", "ZTHING BLOB", "ZBLOB BLOB",
        ])
        #expect(layout.table(named: "ZOWNER")?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZFAVOURITE", "Z1_FAVOURITE"])
        #expect(layout.mapping(entity: "Note", property: "title") == .attribute(table: "ZITEM", column: "ZTITLE1"))
        #expect(layout.mapping(entity: "Note", property: "count") == .attribute(table: "ZITEM", column: "ZCOUNT"))
        #expect(layout.mapping(entity: "Owner", property: "memos") == .toManyThroughInverse(table: "ZITEM", column: "ZOWNER", orderColumn: "Z_FOK_OWNER"))
        #expect(layout.mapping(entity: "Owner", property: "notes") == .toManyThroughInverse(table: "ZITEM", column: "ZOWNER1", orderColumn: nil))
        #expect(layout.mapping(entity: "Owner", property: "favourite") == .toOne(table: "ZOWNER", column: "ZFAVOURITE", entityColumn: "Z1_FAVOURITE", orderColumn: nil))
    }

    @Test func manyToManyOrderedReflexiveAndWithoutInverse() throws {
        let layout = CoreDataLayout(try Self.model([
            EntityDescription(name: "Person", relationships: [
                RelationshipDescription(name: "friends", destination: "Person", isToMany: true, inverse: "friends"),
                RelationshipDescription(name: "followers", destination: "Person", isToMany: true, inverse: "following"),
                RelationshipDescription(name: "following", destination: "Person", isToMany: true, inverse: "followers"),
                RelationshipDescription(name: "lists", destination: "List", isToMany: true, inverse: "members"),
                RelationshipDescription(name: "bookmarks", destination: "List", isToMany: true),
            ]),
            EntityDescription(name: "List", relationships: [
                RelationshipDescription(name: "members", destination: "Person", isToMany: true, inverse: "lists", isOrdered: true),
            ]),
        ]))
        // List is 1, Person 2: the join table of members/lists is List's.
        #expect(layout.table(named: "Z_1MEMBERS")?.columns.map(\.name) == ["Z_1LISTS", "Z_2MEMBERS", "Z_FOK_2MEMBERS"])
        #expect(layout.mapping(entity: "List", property: "members") == .joinTable(table: "Z_1MEMBERS", ownerColumn: "Z_1LISTS", destinationColumn: "Z_2MEMBERS", orderColumn: "Z_FOK_2MEMBERS"))
        #expect(layout.mapping(entity: "Person", property: "lists") == .joinTable(table: "Z_1MEMBERS", ownerColumn: "Z_2MEMBERS", destinationColumn: "Z_1LISTS", orderColumn: nil))
        #expect(layout.table(named: "Z_2FRIENDS")?.columns.map(\.name) == ["Z_2FRIENDS", "Z_2FRIENDS1"])
        #expect(layout.mapping(entity: "Person", property: "friends") == .joinTable(table: "Z_2FRIENDS", ownerColumn: "Z_2FRIENDS", destinationColumn: "Z_2FRIENDS1", orderColumn: nil))
        #expect(layout.table(named: "Z_2FOLLOWERS")?.columns.map(\.name) == ["Z_2FOLLOWING", "Z_2FOLLOWERS"])
        #expect(layout.table(named: "Z_2FOLLOWING") == nil)
        #expect(layout.mapping(entity: "Person", property: "following") == .joinTable(table: "Z_2FOLLOWERS", ownerColumn: "Z_2FOLLOWERS", destinationColumn: "Z_2FOLLOWING", orderColumn: nil))
        #expect(layout.mapping(entity: "Person", property: "bookmarks") == .joinTable(table: "Z_2BOOKMARKS", ownerColumn: "Z_2PERSON", destinationColumn: "Z_1BOOKMARKS", orderColumn: nil))
        #expect(layout.tables.map(\.name) == ["ZLIST", "Z_1MEMBERS", "ZPERSON", "Z_2BOOKMARKS", "Z_2FOLLOWERS", "Z_2FRIENDS"])
    }

    /// A long inheritance chain is numbered without recursion, and a property found far up.
    @Test func deepInheritance() throws {
        var entities = [EntityDescription(name: "E0", attributes: [AttributeDescription(name: "name", type: .string)])]
        for i in 1..<400 { entities.append(EntityDescription(name: "E\(i)", parent: "E\(i - 1)")) }
        let layout = CoreDataLayout(try Self.model(entities))
        #expect(layout.entities.count == 400)
        #expect(layout.entity(named: "E399")?.number == 400 && layout.entity(named: "E399")?.superNumber == 399)
        #expect(layout.entity(named: "E0")?.kindNumbers.count == 400)
        #expect(layout.mapping(entity: "E399", property: "name") == .attribute(table: "ZE0", column: "ZNAME"))
        #expect(layout.mapping(entity: "E399", property: "missing") == nil)
        #expect(layout.mapping(entity: "Nobody", property: "name") == nil)
    }
}
