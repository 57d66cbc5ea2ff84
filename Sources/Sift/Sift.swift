// The module Sift's users import: every layer, re-exported.
//
//     import Sift
//     let p = try PredicateNode(format: "title BEGINSWITH[cd] %@", "star")
@_exported import SiftLanguage
@_exported import SiftEvaluation
@_exported import SiftStore
@_exported import SiftSQL
@_exported import SiftSQLStore
@_exported import SiftSQLiteStore
@_exported import SiftPostgreSQL
@_exported import SiftPostgreSQLStore
