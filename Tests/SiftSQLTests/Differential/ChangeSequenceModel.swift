import Foundation
import SiftEvaluation
import SiftLanguage
import SiftStore

/// The model the change-sequence differential test runs on: small, but with every store rule
/// in it, so random changes run into each of them.
///
/// - attributes of every common type (String, Integer 16/32/64, Double, Boolean, Date),
///   required and optional, with and without defaults;
/// - an abstract entity (`Thing`) with two sub-entities (`Item`, `Gadget`), and a sub-entity of
///   a sub-entity (`SpecialItem`);
/// - relationships of every shape: to-one ↔ unordered to-many (`Item.category` ↔
///   `Category.items`, `Gadget.keeper` ↔ `Person.gadgets`, `Person.team` ↔ `Team.members`),
///   to-one ↔ ordered to-many (`Item.owner` ↔ `Person.ownedItems`), to-many ↔ to-many
///   (`Thing.tags` ↔ `Tag.things`, declared on the abstract `Thing`, so `SpecialItem` inherits a
///   join table from its grandparent), to-one ↔ to-one (`Item.note` ↔ `Note.item`), without
///   inverse (to-one `Item.favourite`, unordered to-many `Item.related` to the abstract `Thing`,
///   ordered to-many `Person.favourites`) and a self-relationship tree (`Item.parent` ↔
///   `Item.children`);
/// - every delete rule: Cascade (`children`, `ownedItems`, `members`, `Note.item`), Nullify,
///   Deny (to-one `Item.note`, to-many `Category.items` and `Person.gadgets`), No Action
///   (`Tag.things`, `Item.related`);
/// - counts: `Team.members` 2...4, `Tag.things` at most 4; a required to-one (`Item.owner`);
/// - uniqueness constraints on an attribute (`Item.code`, `Category.name`), on a sub-entity
///   only (`SpecialItem.level`) and on an attribute with a to-one (`Person.name, team`).
enum ChangeSequenceModel {
    static let json = #"""
    {"name": "ChangeSequences", "entities": [
      {"name": "Thing", "abstract": true,
       "attributes": [
         {"name": "name", "type": "String", "optional": false},
         {"name": "created", "type": "Date"}],
       "relationships": [
         {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "things", "deleteRule": "nullify"}]},
      {"name": "Item", "parent": "Thing",
       "attributes": [
         {"name": "count", "type": "Integer 32", "optional": false, "default": 0},
         {"name": "price", "type": "Double"},
         {"name": "flag", "type": "Boolean", "optional": false, "default": false},
         {"name": "code", "type": "String"}],
       "relationships": [
         {"name": "category", "destination": "Category", "inverse": "items", "deleteRule": "nullify"},
         {"name": "owner", "destination": "Person", "inverse": "ownedItems", "deleteRule": "nullify", "optional": false},
         {"name": "parent", "destination": "Item", "inverse": "children", "deleteRule": "nullify"},
         {"name": "children", "destination": "Item", "toMany": true, "inverse": "parent", "deleteRule": "cascade"},
         {"name": "note", "destination": "Note", "inverse": "item", "deleteRule": "deny"},
         {"name": "related", "destination": "Thing", "toMany": true, "deleteRule": "noAction"},
         {"name": "favourite", "destination": "Tag", "deleteRule": "nullify"}],
       "uniquenessConstraints": [["code"]]},
      {"name": "SpecialItem", "parent": "Item",
       "attributes": [
         {"name": "level", "type": "Integer 16"},
         {"name": "bonus", "type": "Double", "optional": false, "default": 1.5}],
       "uniquenessConstraints": [["level"]]},
      {"name": "Gadget", "parent": "Thing",
       "attributes": [
         {"name": "weight", "type": "Double", "optional": false}],
       "relationships": [
         {"name": "keeper", "destination": "Person", "inverse": "gadgets", "deleteRule": "nullify"}]},
      {"name": "Category",
       "attributes": [
         {"name": "name", "type": "String", "optional": false},
         {"name": "rank", "type": "Integer 64", "optional": false, "default": 0},
         {"name": "ratio", "type": "Double"}],
       "relationships": [
         {"name": "items", "destination": "Item", "toMany": true, "inverse": "category", "deleteRule": "deny"}],
       "uniquenessConstraints": [["name"]]},
      {"name": "Tag",
       "attributes": [
         {"name": "name", "type": "String", "optional": false},
         {"name": "weight", "type": "Double", "default": 1.0}],
       "relationships": [
         {"name": "things", "destination": "Thing", "toMany": true, "inverse": "tags", "deleteRule": "noAction", "maxCount": 4}]},
      {"name": "Person",
       "attributes": [
         {"name": "name", "type": "String", "optional": false},
         {"name": "age", "type": "Integer 16"},
         {"name": "born", "type": "Date"},
         {"name": "active", "type": "Boolean", "default": true}],
       "relationships": [
         {"name": "ownedItems", "destination": "Item", "toMany": true, "ordered": true, "inverse": "owner", "deleteRule": "cascade"},
         {"name": "gadgets", "destination": "Gadget", "toMany": true, "inverse": "keeper", "deleteRule": "deny"},
         {"name": "team", "destination": "Team", "inverse": "members", "deleteRule": "nullify"},
         {"name": "favourites", "destination": "Tag", "toMany": true, "ordered": true, "deleteRule": "nullify"}],
       "uniquenessConstraints": [["name", "team"]]},
      {"name": "Team",
       "attributes": [
         {"name": "name", "type": "String", "optional": false, "default": "team"},
         {"name": "budget", "type": "Double"}],
       "relationships": [
         {"name": "members", "destination": "Person", "toMany": true, "inverse": "team", "deleteRule": "cascade", "minCount": 2, "maxCount": 4}]},
      {"name": "Note",
       "attributes": [
         {"name": "text", "type": "String"},
         {"name": "created", "type": "Date", "optional": false, "default": "2021-01-01T00:00:00Z"}],
       "relationships": [
         {"name": "item", "destination": "Item", "inverse": "note", "deleteRule": "cascade"}]}
    ]}
    """#

    static func make() throws -> DataModel {
        try JSONModelFormat.read(Data(json.utf8), name: "ChangeSequences")
    }

    /// The entities objects are inserted as (every entity but the abstract `Thing`).
    static let concreteEntities = ["Item", "SpecialItem", "Gadget", "Category", "Tag", "Person", "Team", "Note"]

    /// The first letter of the explicit IDs given to each entity's objects (never `o`, the
    /// stores' generated IDs).
    static let idPrefix: [String: String] = [
        "Item": "I", "SpecialItem": "S", "Gadget": "G", "Category": "C", "Tag": "T", "Person": "P", "Team": "M", "Note": "N",
    ]

    /// Fetches whose results must agree after every save and rollback: predicates over
    /// relationships of every shape, counts, subqueries, and paths through several objects.
    static let checkFetches: [(entity: String, predicate: String)] = [
        ("Thing", "ANY tags.name == 'alpha'"),
        ("SpecialItem", "tags.@count > 0"),
        ("Thing", "name == 'alpha' OR created != nil"),
        ("Item", "children.@count > 1"),
        ("Item", "category == nil"),
        ("Item", "owner.team != nil AND flag == YES"),
        ("Item", "SUBQUERY(children, $c, $c.price > 1).@count > 0"),
        ("Item", "note != nil OR parent.parent != nil"),
        ("Item", "ANY related.name == 'beta'"),
        ("Item", "favourite.name == 'beta'"),
        ("SpecialItem", "level > 0 OR bonus > 1"),
        ("Gadget", "keeper.name BEGINSWITH 'a'"),
        ("Person", "ANY ownedItems.count > 2"),
        ("Person", "gadgets.@count > 0 OR team == nil"),
        ("Person", "ANY favourites.weight > 1"),
        ("Team", "members.@count >= 2"),
        ("Note", "item.owner.name BEGINSWITH 'a'"),
        ("Tag", "things.@count == 0"),
        ("Category", "items.@count > 0 AND rank >= 1"),
    ]

    /// Predicates batch updates and deletes select with, by entity (nil: every object). A few
    /// name keys the entity does not have: both stores must refuse them alike.
    static let batchPredicates: [String: [String?]] = [
        "Thing": [nil, "name == 'alpha'", "created == nil", "ANY tags.weight > 1", "tags.@count == 0"],
        "Item": [nil, "ANY tags.weight > 1", "count > 2", "flag == YES", "price == nil", "category == nil", "ANY tags.name == 'beta'",
                 "children.@count > 0", "owner.name == 'alpha'", "code BEGINSWITH 'A'", "parent != nil", "note == nil",
                 "nosuchkey == 1"],
        "SpecialItem": [nil, "level > 1", "bonus < 2"],
        "Gadget": [nil, "weight > 1", "keeper == nil"],
        "Category": [nil, "rank > 0", "items.@count == 0", "name == 'alpha'"],
        "Tag": [nil, "things.@count > 1", "weight < 1", "name == 'beta'"],
        "Person": [nil, "age > 30", "team == nil", "ownedItems.@count == 0", "gadgets.@count == 0", "active == NO"],
        "Team": [nil, "budget > 10", "members.@count < 2"],
        "Note": [nil, "item == nil", "text == 'n'"],
        "Widget": [nil],
    ]

    /// Values batch updates set, by entity and attribute: constants, expressions on the object
    /// and through its relationships, values of the wrong type or out of range, nil for
    /// required attributes; and a few keys that are not attributes.
    static let batchAssignments: [String: [(key: String, expressions: [String])]] = [
        "Thing": [("name", ["name + '!'", "'alpha'", "nil"]), ("created", ["nil", "created"])],
        "Item": [("count", ["0", "count + 1", "count * 2", "3000000000", "'x'", "tags.@count", "parent.count + 1"]),
                 ("price", ["price * 1.5", "1.5", "nil", "count / 2", "owner.age"]),
                 ("flag", ["YES", "NO", "1", "2"]),
                 ("code", ["'A'", "name", "nil", "code + '!'"]),
                 ("name", ["name + '!'", "nil", "'beta'", "category.name"]),
                 ("owner", ["nil"]), ("nosuchkey", ["1"])],
        "SpecialItem": [("level", ["level + 1", "count", "40000", "nil"]), ("bonus", ["bonus * 2", "nil", "level"])],
        "Gadget": [("weight", ["weight + 1", "nil", "keeper.age"])],
        "Category": [("rank", ["rank + 1", "items.@count", "1.5"]), ("ratio", ["ratio * 2", "nil", "rank / 3"]),
                     ("name", ["'alpha'", "name + 'x'"])],
        "Tag": [("weight", ["weight * 2", "things.@count", "'heavy'"]), ("name", ["'alpha'", "nil"])],
        "Person": [("age", ["age + 1", "40000", "ownedItems.@count", "nil"]), ("name", ["'alpha'", "name + 'x'"]),
                   ("active", ["NO", "YES"]), ("team", ["nil"])],
        "Team": [("budget", ["budget + 10", "members.@count * 100", "nil"]), ("name", ["nil", "'blue'"])],
        "Note": [("text", ["'n'", "item.name", "nil"]), ("created", ["nil", "created"])],
        "Widget": [("name", ["'x'"])],
    ]
}
