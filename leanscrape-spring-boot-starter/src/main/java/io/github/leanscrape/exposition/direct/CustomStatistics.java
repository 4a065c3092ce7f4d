package io.github.leanscrape.exposition.direct;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * How Micrometer's Prometheus registry lays out a custom meter ({@code Meter.builder}):
 * each measurement is a series labelled {@code statistic="<STATISTIC>"}, in a family
 * named after its statistic: counters for {@code COUNT} (the meter's name) and
 * {@code TOTAL}, {@code TOTAL_TIME} ({@code _sum}), gauges for the others.
 *
 * @author leanscrape
 */
final class CustomStatistics {

	/** The label each series of a custom meter gets. */
	static final String LABEL = "statistic";

	/**
	 * Whether the registry takes a custom counter's created timestamp once, when it is
	 * registered, as it does for every other counter. Before Micrometer 1.16.7 and 1.17.1
	 * it read the clock at every scrape, which only its own collector can write the same;
	 * so custom meters stay with it there.
	 */
	static final boolean CREATED_ONCE = createdOnce(
			PrometheusMeterRegistry.class.getPackage().getImplementationVersion());

	private CustomStatistics() {
	}

	/**
	 * Return the statistics of a custom meter's measurements, in order.
	 * @param meter the meter
	 * @return its statistics
	 */
	static List<Statistic> of(Meter meter) {
		List<Statistic> statistics = new ArrayList<>();
		for (Measurement measurement : meter.measure()) {
			statistics.add(measurement.getStatistic());
		}
		return statistics;
	}

	/**
	 * Return the suffix of the family a statistic's series go to.
	 * @param statistic the statistic
	 * @return the suffix after the meter's Prometheus name
	 */
	static String suffix(Statistic statistic) {
		return switch (statistic) {
			case COUNT -> "";
			case TOTAL, TOTAL_TIME -> "_sum";
			case MAX -> "_max";
			case ACTIVE_TASKS -> "_active_count";
			case DURATION -> "_duration_sum";
			case VALUE, UNKNOWN -> "_value";
		};
	}

	/**
	 * Return the kind of the family a statistic's series go to.
	 * @param statistic the statistic
	 * @return counter or gauge
	 */
	static SeriesKind kind(Statistic statistic) {
		return switch (statistic) {
			case COUNT, TOTAL, TOTAL_TIME -> SeriesKind.COUNTER;
			default -> SeriesKind.GAUGE;
		};
	}

	static boolean createdOnce(@Nullable String version) {
		if (version == null) {
			return false;
		}
		String[] parts = version.split("[.-]");
		try {
			int major = Integer.parseInt(parts[0]);
			int minor = Integer.parseInt(parts[1]);
			int patch = (parts.length > 2) ? Integer.parseInt(parts[2]) : 0;
			if (major != 1) {
				return major > 1;
			}
			return minor > 17 || (minor == 17 && patch >= 1) || (minor == 16 && patch >= 7);
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

}
