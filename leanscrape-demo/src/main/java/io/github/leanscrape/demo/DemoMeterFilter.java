package io.github.leanscrape.demo;

import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;

import org.springframework.stereotype.Component;

/**
 * Makes the meters that Micrometer and Spring Boot add to the demo pass
 * {@code promtool check metrics}, as a user's own filter would: it describes the few that
 * come without a description and leaves out the three whose names promtool rejects.
 * <p>
 * Micrometer names {@code jvm.compilation.time} and {@code process.cpu.time} after their
 * base units ({@code _ms_total}, {@code _ns_total}: "metric names should not contain
 * abbreviated units"), and {@code system.cpu.count} is a gauge whose name ends in
 * {@code _count}. Renaming them would keep the values in milliseconds and nanoseconds
 * under names that no longer say so, so the demo does without them.
 *
 * @author leanscrape
 */
@Component
public final class DemoMeterFilter implements MeterFilter {

	private static final Set<String> LEFT_OUT = Set.of("jvm.compilation.time", "process.cpu.time", "system.cpu.count");

	private static final Map<String, String> DESCRIPTIONS = Map.of("http.server.requests",
			"Duration of HTTP server requests", "http.server.requests.active", "HTTP server requests in progress",
			"tomcat.sessions.active.current", "Sessions active now", "tomcat.sessions.active.max",
			"Most sessions active at once", "tomcat.sessions.alive.max", "Longest time a session lived",
			"tomcat.sessions.created", "Sessions created", "tomcat.sessions.expired", "Sessions expired",
			"tomcat.sessions.rejected", "Sessions rejected for exceeding the maximum");

	@Override
	public MeterFilterReply accept(Meter.Id id) {
		return LEFT_OUT.contains(id.getName()) ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
	}

	@Override
	public Meter.Id map(Meter.Id id) {
		String description = (id.getDescription() != null) ? null : DESCRIPTIONS.get(id.getName());
		if (description == null) {
			return id;
		}
		return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(), description, id.getType());
	}

}
