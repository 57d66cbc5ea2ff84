/// SQL functions a PostgreSQL store installs so that the server converts numbers exactly as the
/// evaluator does where no SQL cast does (PostgreSQL's `numeric::float8` is correctly rounded;
/// Foundation's is not):
///
/// | function | the evaluator's |
/// |---|---|
/// | `sift_decimal_double(numeric)` | `NSDecimalNumber(decimal: d).doubleValue`, how a decimal meets a double (comparisons, arithmetic, `floor:`, `sqrt:` …) |
///
/// **The conversion.** Foundation reads a decimal's text (`Decimal(string:)`, which is how every
/// store reads one) into a mantissa of significant digits, trailing zeros moved into the
/// exponent (`"1200"` is 12 × 10², `"12.50"` is 125 × 10⁻¹), and converts it by folding the
/// mantissa's 16-bit words into a double from the most significant (`d = d * 65536 + w`), then
/// dividing (or multiplying) by 10 once per unit of exponent, each step rounded — so
/// `12.552` is `12552.0 / 10 / 10 / 10`, not the double nearest 12.552. The function repeats
/// those steps in `double precision`, whose arithmetic is the same IEEE arithmetic. A value
/// whose mantissa or exponent Foundation could not hold (more than 128 bits, beyond 10¹²⁷ or
/// 10⁻¹²⁸, which no value Sift writes has) or an infinity raises an error (SQLSTATE 22003): the fetch runs again in memory.
/// `PostgreSQLNumberFunctionsTests` compares the server's doubles with Foundation's, bit for
/// bit, on random decimals of up to 38 digits and every exponent.
package enum PostgreSQLNumberFunctions {
    package static let decimalDouble = "sift_decimal_double"

    /// Every function's name.
    package static let names: Set<String> = [decimalDouble]

    /// `CREATE OR REPLACE FUNCTION` statements for every function.
    package static let statements: [String] = [
        """
        CREATE OR REPLACE FUNCTION \(SQLIdentifier.quoted(decimalDouble))(numeric) RETURNS double precision
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $sift$
        DECLARE
            mantissa numeric;
            exponent integer;
            words bigint[] := '{}';
            d double precision := 0;
        BEGIN
            IF $1 = 'NaN'::numeric THEN RETURN 'NaN'::double precision; END IF;
            IF $1 = 0 THEN RETURN 0; END IF;
            IF $1 IN ('Infinity'::numeric, '-Infinity'::numeric) THEN
                RAISE EXCEPTION 'sift_decimal_double: an infinite numeric is no decimal' USING ERRCODE = '22003';
            END IF;
            exponent := -scale($1);
            mantissa := trunc(abs($1) * power(10::numeric, scale($1)));
            WHILE mod(mantissa, 10) = 0 LOOP
                mantissa := div(mantissa, 10);
                exponent := exponent + 1;
            END LOOP;
            IF mantissa >= 340282366920938463463374607431768211456::numeric OR exponent NOT BETWEEN -128 AND 127 THEN
                RAISE EXCEPTION 'sift_decimal_double: % is beyond a decimal', $1 USING ERRCODE = '22003';
            END IF;
            WHILE mantissa > 0 LOOP
                words := mod(mantissa, 65536)::bigint || words;
                mantissa := div(mantissa, 65536);
            END LOOP;
            FOR i IN 1 .. cardinality(words) LOOP
                d := d * 65536 + words[i];
            END LOOP;
            IF exponent < 0 THEN
                FOR i IN 1 .. -exponent LOOP d := d / 10; END LOOP;
            ELSE
                FOR i IN 1 .. exponent LOOP d := d * 10; END LOOP;
            END IF;
            RETURN CASE WHEN $1 < 0 THEN -d ELSE d END;
        END
        $sift$
        """,
    ]
}
