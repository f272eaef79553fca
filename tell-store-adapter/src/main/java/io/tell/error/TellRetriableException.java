package io.tell.error;

/** A failure that may go away when the operation (or the whole transaction) is retried. */
public class TellRetriableException extends TellException {
    TellRetriableException(ErrorCode code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
