#if compiler(>=6.2)
/// `SendableMetatype` where the compiler has it (Swift 6.2 and later), nothing before: the
/// requirement of a type whose metatype the library captures in `@Sendable` closures (a key's
/// reader, a compiled plan) — the property types of ``PredicateValueConvertible`` values and
/// the roots a plan reads. Every type that can be used from more than one thread meets it.
public typealias MetatypeSendable = SendableMetatype
#else
/// Nothing before Swift 6.2 (which has `SendableMetatype`, the requirement of a type whose
/// metatype the library captures in `@Sendable` closures).
public typealias MetatypeSendable = Any
#endif
