import Foundation

// The `PredicateExpressions` nodes with an exact SQL translation. Each conforms only when its
// children do, so an unsupported node anywhere in a tree makes the cast in
// `PredicateTranslator.translate(_:)` fail with that node's name.

extension PredicateExpressions.Variable: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operand(for: key)
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        builder.refer(to: key)
        return true
    }
}

extension PredicateExpressions.Value: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        translator.operand(capturing: try captured())
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        guard let captured = try? captured() else { return false }
        builder.capture(captured)
        return true
    }

    /// The captured value as the store binds it.
    private func captured() throws -> CapturedValue {
        if let scalar = value as? any SQLiteValue { return .scalar(try Self.bindable(scalar)) }
        if let sequence = value as? any Sequence {
            var items: [DatabaseValue] = []
            for item in sequence {
                guard let scalar = item as? any SQLiteValue else {
                    throw QueryError.unsupported("a captured value of type \(type(of: item))")
                }
                items.append(try Self.bindable(scalar))
            }
            return .list(items)
        }
        throw QueryError.unsupported("a captured value of type \(Output.self)")
    }

    /// `value` as bound, refusing NaN (a `Double`, or a `Date` made of one): SQLite binds it as
    /// NULL, so `!=` and `<` would answer as for nil, where Swift compares NaN unequal to everything.
    private static func bindable(_ value: any SQLiteValue) throws -> DatabaseValue {
        let bound = value.databaseValue
        if case .real(let number) = bound, number.isNaN {
            throw QueryError.unsupported("a captured \(type(of: value)) that is NaN (SQLite binds it as NULL)")
        }
        return bound
    }
}

extension PredicateExpressions.NilLiteral: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand { .value(.null) }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        true
    }
}

extension PredicateExpressions.KeyPath: SQLTranslatable where Root: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.resolve(try root.translate(with: translator), keyPath: keyPath)
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        guard root.addShape(to: &builder) else { return false }
        builder.add(keyPath)
        return true
    }
}

extension PredicateExpressions.Equal: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.equal(try lhs.translate(with: translator), try rhs.translate(with: translator), negated: false)
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        lhs.addShape(to: &builder) && rhs.addShape(to: &builder)
    }
}

extension PredicateExpressions.NotEqual: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.equal(try lhs.translate(with: translator), try rhs.translate(with: translator), negated: true)
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        lhs.addShape(to: &builder) && rhs.addShape(to: &builder)
    }
}

extension PredicateExpressions.Comparison: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.order(sqlForm.sqlOperator, try lhs.translate(with: translator),
                                        try rhs.translate(with: translator), symbol: sqlForm.symbol)
    }

    private var sqlForm: (sqlOperator: ComparisonOperator, symbol: String) {
        switch op {
        case .lessThan: (.less, "<")
        case .lessThanOrEqual: (.lessOrEqual, "<=")
        case .greaterThan: (.greater, ">")
        case .greaterThanOrEqual: (.greaterOrEqual, ">=")
        }
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        guard lhs.addShape(to: &builder) && rhs.addShape(to: &builder) else { return false }
        builder.add(operator: sqlForm.symbol)
        return true
    }
}

extension PredicateExpressions.Conjunction: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        translator.operations.and(try lhs.translate(with: translator), try rhs.translate(with: translator))
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        lhs.addShape(to: &builder) && rhs.addShape(to: &builder)
    }
}

extension PredicateExpressions.Disjunction: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        translator.operations.or(try lhs.translate(with: translator), try rhs.translate(with: translator))
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        lhs.addShape(to: &builder) && rhs.addShape(to: &builder)
    }
}

extension PredicateExpressions.Negation: SQLTranslatable where Wrapped: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        translator.operations.not(try wrapped.translate(with: translator))
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        wrapped.addShape(to: &builder)
    }
}

extension PredicateExpressions.Arithmetic: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.arithmetic(sqlForm.function, try lhs.translate(with: translator),
                                             try rhs.translate(with: translator), symbol: sqlForm.symbol)
    }

    private var sqlForm: (function: String, symbol: String) {
        switch op {
        case .add: ("swift_add", "+")
        case .subtract: ("swift_subtract", "-")
        case .multiply: ("swift_multiply", "*")
        }
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        guard lhs.addShape(to: &builder) && rhs.addShape(to: &builder) else { return false }
        builder.add(operator: sqlForm.symbol)
        return true
    }
}

extension PredicateExpressions.IntDivision: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.arithmetic("swift_divide", try lhs.translate(with: translator),
                                             try rhs.translate(with: translator), symbol: "/")
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        lhs.addShape(to: &builder) && rhs.addShape(to: &builder)
    }
}

extension PredicateExpressions.IntRemainder: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.arithmetic("swift_remainder", try lhs.translate(with: translator),
                                             try rhs.translate(with: translator), symbol: "%")
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        lhs.addShape(to: &builder) && rhs.addShape(to: &builder)
    }
}

extension PredicateExpressions.UnaryMinus: SQLTranslatable where Wrapped: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.arithmetic("swift_subtract", .value(.integer(0)), try wrapped.translate(with: translator),
                                             symbol: "-")
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        wrapped.addShape(to: &builder)
    }
}

extension PredicateExpressions.NilCoalesce: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        let optional = try lhs.translate(with: translator)
        let fallback = try rhs.translate(with: translator)
        try translator.operations.checkNilIsDistinct(optional)
        var result = Operand.scalar(.coalesce([optional.expression, fallback.expression]), optional.kind ?? fallback.kind,
                                    optional: fallback.isOptional).failing(with: fallback)
        result.comparisonKey = Operand.combinedKey(of: [optional, fallback]) { .coalesce($0) }
        return result
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        lhs.addShape(to: &builder) && rhs.addShape(to: &builder)
    }
}

extension PredicateExpressions.ForcedUnwrap: SQLTranslatable where Inner: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        // A nil makes `evaluate` throw, so no such row is accepted; in SQL it stays NULL, which the
        // operators carry on to the WHERE clause (see `QueryOperations`).
        var operand = try inner.translate(with: translator)
        operand.isOptional = false
        operand.mayFail = true
        return operand
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        inner.addShape(to: &builder)
    }
}

extension PredicateExpressions.OptionalFlatMap: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        var wrappedOperand = try wrapped.translate(with: translator)
        try translator.operations.checkNilIsDistinct(wrappedOperand)
        let wrappedExpression = wrappedOperand.expression
        wrappedOperand.isOptional = false
        translator.bind(variable.key, to: wrappedOperand)
        let result = try transform.translate(with: translator)
        var mapped = result
        mapped.expression = .conditional(.isNull(wrappedExpression), then: .value(.null), else: result.expression)
        mapped.comparisonKey = result.comparisonKey.map {
            .conditional(.isNull(wrappedExpression), then: .value(.null), else: $0)
        }
        mapped.isOptional = true
        return mapped
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        guard wrapped.addShape(to: &builder) else { return false }
        builder.define(variable.key)
        return transform.addShape(to: &builder)
    }
}

extension PredicateExpressions.Conditional: SQLTranslatable
where Test: SQLTranslatable, If: SQLTranslatable, Else: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        let condition = try test.translate(with: translator)
        let yes = try trueBranch.translate(with: translator)
        let no = try falseBranch.translate(with: translator)
        let operations = translator.operations
        // A failing test is NULL, which CASE would take for false.
        var result = Operand.scalar(
            operations.nullWhereFailed(.conditional(condition.expression, then: yes.expression, else: no.expression), condition),
            yes.kind ?? no.kind, optional: yes.isOptional || no.isOptional).failing(with: condition, yes, no)
        result.comparisonKey = Operand.combinedKey(of: [yes, no]) { keys in
            operations.nullWhereFailed(.conditional(condition.expression, then: keys[0], else: keys[1]), condition)
        }
        return result
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        test.addShape(to: &builder) && trueBranch.addShape(to: &builder) && falseBranch.addShape(to: &builder)
    }
}

extension PredicateExpressions.SequenceContains: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        let container = try sequence.translate(with: translator)
        if container.kind == .text {
            throw QueryError.unsupported("contains(_:) of a single Character in text; use a String argument")
        }
        return try translator.operations.contains(container, try element.translate(with: translator))
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        sequence.addShape(to: &builder) && element.addShape(to: &builder)
    }
}

extension PredicateExpressions.SequenceContainsWhere: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.exists(in: sequence, variable: variable.key, test: test, negated: false)
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        guard sequence.addShape(to: &builder) else { return false }
        builder.define(variable.key)
        return test.addShape(to: &builder)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        // allSatisfy(test) ⇔ !contains(where: !test)
        translator.operations.not(try translator.exists(in: sequence, variable: variable.key, test: test, negated: true))
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        guard sequence.addShape(to: &builder) else { return false }
        builder.define(variable.key)
        return test.addShape(to: &builder)
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLTranslatable where Base: SQLTranslatable, Prefix: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.startsWith(try base.translate(with: translator), try prefix.translate(with: translator))
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        base.addShape(to: &builder) && prefix.addShape(to: &builder)
    }
}

extension PredicateExpressions.CollectionContainsCollection: SQLTranslatable
where Base: SQLTranslatable, Other: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        let container = try base.translate(with: translator)
        guard container.kind == .text || (container.kind == nil && Base.Output.self == String.self) else {
            throw QueryError.unsupported("contains(_:) of one collection in another")
        }
        return try translator.operations.contains(container, try other.translate(with: translator))
    }

    func addShape(to builder: inout PredicateShapeBuilder) -> Bool {
        base.addShape(to: &builder) && other.addShape(to: &builder)
    }
}
