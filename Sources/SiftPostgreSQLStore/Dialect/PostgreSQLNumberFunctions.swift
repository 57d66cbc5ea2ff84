import SiftSQL

/// SQL functions a PostgreSQL store installs so that the server converts numbers exactly as the
/// evaluator does where no SQL cast does (PostgreSQL's `numeric::float8` is correctly rounded;
/// Foundation's is not):
///
/// | function | the evaluator's |
/// |---|---|
/// | `sift_decimal_double(numeric)` | `NSDecimalNumber(decimal: d).doubleValue`, how a decimal meets a double (comparisons, arithmetic, `floor:`, `sqrt:` …) |
/// | `sift_double_text(double precision)` | `d.description`, a double's text (`CAST(x, "NSString")`) |
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
///
/// **A double's text.** Swift writes the shortest digits that read back as the same double, as
/// PostgreSQL's `float8out` does (with `extra_float_digits` above 0, the default; the function
/// sets it), so only the layout differs: Swift writes `5.0`, `1e-05`, `1e+16`,
/// `1000000000000000.0`, `nan`, `inf`; PostgreSQL `5`, `1e-05`, `1e+16`, `1e+15`, `NaN`,
/// `Infinity`. The function reads the digits and the exponent from PostgreSQL's text and lays
/// them out as Swift does: exponential below 10⁻⁴ and above 2⁵³, else positional with at least
/// one digit after the point. One more difference: where the double's significand is even, a
/// spelling exactly halfway to a neighbour reads back as the double (rounding half to even), and
/// Swift's shortest spelling may be such a one, which PostgreSQL's never is; the function tries
/// the shorter spellings (as `float8in` reads them). Beyond 10³⁰⁰ or below 10⁻³⁰⁰ it raises an
/// error (SQLSTATE 22003), and the fetch runs in memory. `PostgreSQLNumberFunctionsTests` compares it with Swift on random doubles
/// of every exponent.
package enum PostgreSQLNumberFunctions {
    static let decimalDouble = SQLNumberFunction.decimalDouble.rawValue
    static let doubleText = SQLNumberFunction.doubleText.rawValue

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
        """
        CREATE OR REPLACE FUNCTION \(SQLIdentifier.quoted(doubleText))(double precision) RETURNS text
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET extra_float_digits = 1 AS $sift$
        DECLARE
            t text := $1::text;
            negative boolean := left(t, 1) = '-';
            whole text;
            fraction text;
            digits text;
            exponent integer;
            shorter text;
            spelled text;
        BEGIN
            IF $1 = 'NaN'::double precision THEN RETURN 'nan'; END IF;
            IF $1 = 'Infinity'::double precision THEN RETURN 'inf'; END IF;
            IF $1 = '-Infinity'::double precision THEN RETURN '-inf'; END IF;
            IF negative THEN t := substr(t, 2); END IF;
            IF $1 = 0 THEN RETURN CASE WHEN negative THEN '-0.0' ELSE '0.0' END; END IF;
            IF strpos(t, 'e') > 0 THEN
                -- d.ddde±x: the first digit's exponent is x.
                exponent := split_part(t, 'e', 2)::integer;
                digits := replace(split_part(t, 'e', 1), '.', '');
            ELSE
                whole := split_part(t, '.', 1);
                fraction := split_part(t, '.', 2);
                IF whole <> '0' THEN
                    exponent := length(whole) - 1;
                    digits := whole || fraction;
                ELSE
                    exponent := length(ltrim(fraction, '0')) - length(fraction) - 1;
                    digits := ltrim(fraction, '0');
                END IF;
            END IF;
            digits := rtrim(digits, '0');
            IF exponent > 300 OR exponent < -300 THEN
                -- (Shorter candidates there could be out of float8in's range.)
                RAISE EXCEPTION 'sift_double_text: % is beyond the range it spells', $1 USING ERRCODE = '22003';
            END IF;
            -- A shorter spelling at the edge of the double's interval, which reads back as the
            -- double by rounding half to even: Swift's shortest includes it, PostgreSQL's not.
            FOR k IN 1 .. length(digits) - 1 LOOP
                shorter := left(digits, k);
                IF (shorter || 'e' || (exponent - k + 1))::double precision = abs($1) THEN
                    digits := rtrim(shorter, '0');
                    EXIT;
                END IF;
                shorter := (left(digits, k)::bigint + 1)::text;
                IF (shorter || 'e' || (exponent - k + 1))::double precision = abs($1) THEN
                    IF length(shorter) > k THEN exponent := exponent + 1; END IF;
                    digits := rtrim(shorter, '0');
                    EXIT;
                END IF;
            END LOOP;
            IF abs($1) < 0.0001 OR abs($1) > 9007199254740992 THEN
                spelled := left(digits, 1) || CASE WHEN length(digits) > 1 THEN '.' || substr(digits, 2) ELSE '' END
                    || 'e' || CASE WHEN exponent < 0 THEN '-' ELSE '+' END || CASE WHEN abs(exponent) < 10 THEN '0' ELSE '' END || abs(exponent)::text;
            ELSIF exponent >= 0 THEN
                spelled := CASE WHEN length(digits) <= exponent + 1 THEN rpad(digits, exponent + 1, '0') || '.0'
                                ELSE left(digits, exponent + 1) || '.' || substr(digits, exponent + 2) END;
            ELSE
                spelled := '0.' || repeat('0', -exponent - 1) || digits;
            END IF;
            RETURN CASE WHEN negative THEN '-' || spelled ELSE spelled END;
        END
        $sift$
        """,
    ]
}
