package dev.etcdoperator.support;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.etcdoperator.core.status.Conditions;
import dev.etcdoperator.core.status.SpecValidity;

/** Wires the pure core into CDI. */
public class CoreProducer {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    Conditions conditions(Clock clock) {
        return new Conditions(clock);
    }

    @Produces
    @Singleton
    SpecValidity specValidity(Conditions conditions) {
        return new SpecValidity(conditions);
    }
}
