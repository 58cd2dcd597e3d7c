package dev.etcdoperator.core.validation;

/** One invalid field: its JSON path from the resource root (for example {@code spec.size}) and what is wrong. */
public record FieldError(String path, String message) {
    @Override
    public String toString() {
        return path + ": " + message;
    }
}
