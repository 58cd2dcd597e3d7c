package dev.etcdoperator.core.restore;

/** The one thing a restore does next. */
public sealed interface RestoreAction {

    /** Check the template and the backup; on success record the template and lock it, then go on to {@link RestorePhase#Deleting}. */
    record RunPreflight() implements RestoreAction {
    }

    /** Delete the template cluster (its pods, services and owned claims go with it). */
    record DeleteTemplate() implements RestoreAction {
    }

    /** Look again soon; {@code message} says what is awaited. */
    record Wait(String message) implements RestoreAction {
    }

    /** Create the snapshot Secret and the restored cluster from the saved template. */
    record CreateCluster() implements RestoreAction {
    }

    /**
     * The seed member's download of the snapshot failed ({@code pod} ended): sign a fresh link into the Secret and
     * delete that pod, so that the cluster controller starts the seed again, which reads the Secret anew.
     */
    record RetrySeed(String pod, String message) implements RestoreAction {
    }

    /** Move to another phase (the cluster got there by itself, or was found already there after a restart). */
    record Advance(RestorePhase to, String message) implements RestoreAction {
    }

    /** Stop for good with this reason; {@code destroyedNothing} says whether the template is still untouched. */
    record Fail(String reason, String message) implements RestoreAction {
    }

    /** Nothing more to do. */
    record Nothing() implements RestoreAction {
    }
}
