package io.github.leanscrape.exposition.direct;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.DoubleAdder;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * Reads the single values of meters as Micrometer's collector hands them to client_java,
 * for every format alike.
 *
 * @author leanscrape
 */
final class MeterValues {

	private MeterValues() {
	}

	/**
	 * Return the value of a counter series: a counter, a function counter, a custom
	 * meter's count or total.
	 * @param series the series
	 * @return its count
	 */
	static double counter(Series series) {
		DoubleAdder adder = series.counterAdder;
		if (adder != null) {
			// What PrometheusCounter.count() returns.
			return adder.sum();
		}
		Meter meter = series.meter;
		if (meter instanceof Counter counter) {
			return counter.count();
		}
		if (meter instanceof FunctionCounter counter) {
			return counter.count();
		}
		return ((CustomSeries) series).measurement.getValue();
	}

	/**
	 * Return the adder whose sum is the count of a Micrometer Prometheus counter.
	 * @param meter the meter
	 * @return its adder, or {@code null} when the meter is not exactly a
	 * {@code PrometheusCounter} or its adder cannot be read
	 */
	static @Nullable DoubleAdder counterAdder(Meter meter) {
		// Exactly the class: a subclass could count otherwise.
		if (meter.getClass() != InternalMember.COUNTER_ADDER.owner()) {
			return null;
		}
		return (InternalMember.COUNTER_ADDER.get(meter) instanceof DoubleAdder adder) ? adder : null;
	}

	/**
	 * Return the value of a gauge series: a gauge or a custom meter's measurement.
	 * @param series the series
	 * @return its value
	 */
	static double gauge(Series series) {
		return (series instanceof CustomSeries custom) ? custom.measurement.getValue() : ((Gauge) series.meter).value();
	}

	/**
	 * Fail as client_java fails a scrape with a negative counter, which Spring Boot's
	 * endpoint then fails too.
	 * @param value the counter's value
	 */
	static void checkCounter(double value) {
		if (value < 0) {
			throw new IllegalArgumentException(value + ": counters cannot have a negative value");
		}
	}

	/**
	 * Return the maximum of a timer (in seconds), long task timer (in seconds) or
	 * distribution summary.
	 * @param meter the meter
	 * @return its maximum
	 */
	static double max(Meter meter) {
		if (meter instanceof Timer timer) {
			return timer.max(TimeUnit.SECONDS);
		}
		if (meter instanceof LongTaskTimer longTask) {
			return longTask.max(TimeUnit.SECONDS);
		}
		return ((DistributionSummary) meter).max();
	}

	/**
	 * Call the functions of an excluded family's function meters. Where Spring Boot's
	 * endpoint collects a meter that a name filter excludes (client_java's registry does
	 * unless the collector names its families, as Micrometer's do from 1.18), a function
	 * that throws, or a function counter gone negative, fails its scrape; so it fails
	 * here too. Called only for the families that {@link #hasFunctions} found to have
	 * such meters when their series last changed.
	 * @param family the excluded family
	 * @param series its series
	 */
	static void evaluateFunctions(Family family, Series[] series) {
		for (Series each : series) {
			if (each instanceof CustomSeries custom) {
				// The registry's collector reads every measurement of a custom meter.
				double value = custom.measurement.getValue();
				if (family.kind == SeriesKind.COUNTER) {
					checkCounter(value);
				}
			}
			else if (each.meter instanceof FunctionCounter counter) {
				checkCounter(counter.count());
			}
			else if (each.meter instanceof FunctionTimer timer) {
				timer.count();
				timer.totalTime(TimeUnit.SECONDS);
			}
		}
	}

	/**
	 * Return whether a family has series whose functions {@link #evaluateFunctions}
	 * calls: asked when the family's series change, so that a filtered scrape need not
	 * look at the series of every family it leaves out.
	 * @param family the family
	 * @param series its series
	 * @return {@code true} when it has function meters or custom meters
	 */
	static boolean hasFunctions(Family family, Series[] series) {
		if (family.kind != SeriesKind.COUNTER && family.kind != SeriesKind.SUMMARY && family.kind != SeriesKind.GAUGE) {
			return false;
		}
		for (Series each : series) {
			if (each instanceof CustomSeries || each.meter instanceof FunctionCounter
					|| each.meter instanceof FunctionTimer) {
				return true;
			}
		}
		return false;
	}

}
