package io.tell.error;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The root of every exception Tell throws. Expected outcomes (a conditional write that
 * conflicts, an absent record) are values, never exceptions. Failures whose code is
 * {@linkplain ErrorCode#retriable() retriable} are thrown as {@link TellRetriableException}.
 */
public class TellException extends RuntimeException {
    private final ErrorCode code;

    protected TellException(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** Creates the exception of the right branch (retriable or not) for {@code code}. */
    public static TellException of(ErrorCode code, String message, Throwable cause) {
        return code.retriable()
                ? new TellRetriableException(code, message, cause)
                : new TellException(code, message, cause);
    }

    public static TellException of(ErrorCode code, String message) {
        return of(code, message, null);
    }

    public ErrorCode code() {
        return code;
    }

    public boolean retriable() {
        return code.retriable();
    }

    /**
     * Waits for {@code future} and returns its value; a failure comes out as the
     * {@link TellException} that caused it (anything else is wrapped as {@link ErrorCode#INTERNAL}).
     */
    public static <T> T join(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw of(ErrorCode.INTERNAL, "interrupted while waiting", e);
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        }
    }

    /** The {@link TellException} behind {@code t}, looking through completion wrappers. */
    public static TellException unwrap(Throwable t) {
        Throwable cause = t;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TellException te) {
            return te;
        }
        return of(ErrorCode.INTERNAL, String.valueOf(cause), cause);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + code + "]: " + getMessage();
    }
}
