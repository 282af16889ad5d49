import Foundation

// The `PredicateExpressions` nodes with an exact SQL translation. Each conforms only when its
// children do, so an unsupported node anywhere in a tree makes the cast in
// `PredicateTranslator.translate(_:)` fail with that node's name.

extension PredicateExpressions.Variable: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operand(for: key)
    }
}

extension PredicateExpressions.Value: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        if let scalar = value as? any SQLiteValue { return .value(scalar.databaseValue) }
        if let sequence = value as? any Sequence {
            var items: [Operand] = []
            for item in sequence {
                guard let scalar = item as? any SQLiteValue else {
                    throw QueryError.unsupported("a captured value of type \(type(of: item))")
                }
                items.append(.value(scalar.databaseValue))
            }
            return Operand(expression: .value(.null), shape: .list(items), isOptional: false, comparisonKey: nil)
        }
        throw QueryError.unsupported("a captured value of type \(Output.self)")
    }
}

extension PredicateExpressions.NilLiteral: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand { .value(.null) }
}

extension PredicateExpressions.KeyPath: SQLTranslatable where Root: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.resolve(try root.translate(with: translator), keyPath: keyPath)
    }
}

extension PredicateExpressions.Equal: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.equal(try lhs.translate(with: translator), try rhs.translate(with: translator), negated: false)
    }
}

extension PredicateExpressions.NotEqual: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.equal(try lhs.translate(with: translator), try rhs.translate(with: translator), negated: true)
    }
}

extension PredicateExpressions.Comparison: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        let (sqlOperator, symbol): (ComparisonOperator, String) = switch op {
        case .lessThan: (.less, "<")
        case .lessThanOrEqual: (.lessOrEqual, "<=")
        case .greaterThan: (.greater, ">")
        case .greaterThanOrEqual: (.greaterOrEqual, ">=")
        }
        return try translator.operations.order(sqlOperator, try lhs.translate(with: translator),
                                               try rhs.translate(with: translator), symbol: symbol)
    }
}

extension PredicateExpressions.Conjunction: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        translator.operations.and(try lhs.translate(with: translator), try rhs.translate(with: translator))
    }
}

extension PredicateExpressions.Disjunction: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        translator.operations.or(try lhs.translate(with: translator), try rhs.translate(with: translator))
    }
}

extension PredicateExpressions.Negation: SQLTranslatable where Wrapped: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        translator.operations.not(try wrapped.translate(with: translator))
    }
}

extension PredicateExpressions.Arithmetic: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        let (function, symbol) = switch op {
        case .add: ("swift_add", "+")
        case .subtract: ("swift_subtract", "-")
        case .multiply: ("swift_multiply", "*")
        }
        return try translator.operations.arithmetic(function, try lhs.translate(with: translator),
                                                    try rhs.translate(with: translator), symbol: symbol)
    }
}

extension PredicateExpressions.IntDivision: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.arithmetic("swift_divide", try lhs.translate(with: translator),
                                             try rhs.translate(with: translator), symbol: "/")
    }
}

extension PredicateExpressions.IntRemainder: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.arithmetic("swift_remainder", try lhs.translate(with: translator),
                                             try rhs.translate(with: translator), symbol: "%")
    }
}

extension PredicateExpressions.UnaryMinus: SQLTranslatable where Wrapped: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.arithmetic("swift_subtract", .value(.integer(0)), try wrapped.translate(with: translator),
                                             symbol: "-")
    }
}

extension PredicateExpressions.NilCoalesce: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        let optional = try lhs.translate(with: translator)
        let fallback = try rhs.translate(with: translator)
        try translator.operations.checkNilIsDistinct(optional)
        var result = Operand.scalar(.coalesce([optional.expression, fallback.expression]), optional.kind ?? fallback.kind,
                                    optional: fallback.isOptional).failing(with: fallback)
        if let key = optional.comparisonKey, let fallbackKey = fallback.comparisonKey {
            result.comparisonKey = .coalesce([key, fallbackKey])
        }
        return result
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
        if let yesKey = yes.comparisonKey, let noKey = no.comparisonKey {
            result.comparisonKey = operations.nullWhereFailed(.conditional(condition.expression, then: yesKey, else: noKey),
                                                              condition)
        }
        return result
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
}

extension PredicateExpressions.SequenceContainsWhere: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.exists(in: sequence, variable: variable.key, test: test, negated: false)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SQLTranslatable where LHS: SQLTranslatable, RHS: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        // allSatisfy(test) ⇔ !contains(where: !test)
        translator.operations.not(try translator.exists(in: sequence, variable: variable.key, test: test, negated: true))
    }
}

extension PredicateExpressions.SequenceStartsWith: SQLTranslatable where Base: SQLTranslatable, Prefix: SQLTranslatable {
    func translate<Record>(with translator: PredicateTranslator<Record>) throws -> Operand {
        try translator.operations.startsWith(try base.translate(with: translator), try prefix.translate(with: translator))
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
}
