package dev.etcdoperator.core.validation;

import java.util.List;
import java.util.stream.Collectors;

/** The outcome of checking a spec: valid, or the list of field errors. */
public record Validation(List<FieldError> errors) {

    public Validation {
        errors = List.copyOf(errors);
    }

    public boolean valid() {
        return errors.isEmpty();
    }

    /** All errors on one line, as a status message and an Event say them. */
    public String message() {
        return errors.stream().map(FieldError::toString).collect(Collectors.joining("; "));
    }
}
