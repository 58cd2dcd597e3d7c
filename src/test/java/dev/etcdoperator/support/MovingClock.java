package dev.etcdoperator.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock in UTC that a test sets or moves on. */
public final class MovingClock extends Clock {
    private volatile Instant now;

    public MovingClock(Instant now) {
        this.now = now;
    }

    public void set(Instant t) {
        now = t;
    }

    public void advance(Duration d) {
        now = now.plus(d);
    }

    @Override
    public ZoneOffset getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
