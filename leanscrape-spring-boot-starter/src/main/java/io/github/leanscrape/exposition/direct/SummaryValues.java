package io.github.leanscrape.exposition.direct;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;

/**
 * The values of one summary series, read as Micrometer's collector reads them: count,
 * sum, and the quantiles in ascending order. One instance per scrape, read again for each
 * series.
 *
 * @author leanscrape
 */
final class SummaryValues {

	private static final ValueAtPercentile[] NO_QUANTILES = new ValueAtPercentile[0];

	long count;

	double sum;

	/** The quantiles, ascending; values in seconds when {@link #seconds} is set. */
	ValueAtPercentile[] quantiles = NO_QUANTILES;

	/** Whether the quantile values are times, written in seconds. */
	boolean seconds;

	/**
	 * Read the values of a series.
	 * @param series the series
	 */
	void read(Series series) {
		Meter meter = series.meter;
		this.quantiles = NO_QUANTILES;
		this.seconds = true;
		if (meter instanceof Timer timer) {
			if (series.percentiles) {
				HistogramSnapshot snapshot = timer.takeSnapshot();
				this.count = snapshot.count();
				this.sum = snapshot.total(TimeUnit.SECONDS);
				this.quantiles = sortByPercentile(snapshot.percentileValues());
			}
			else {
				this.count = timer.count();
				this.sum = timer.totalTime(TimeUnit.SECONDS);
			}
		}
		else if (meter instanceof DistributionSummary summary) {
			this.seconds = false;
			if (series.percentiles) {
				this.quantiles = sortByPercentile(summary.takeSnapshot().percentileValues());
			}
			this.count = summary.count();
			this.sum = summary.totalAmount();
		}
		else if (meter instanceof LongTaskTimer longTask) {
			// One snapshot, as Micrometer takes it: the tasks' durations move with the
			// clock.
			HistogramSnapshot snapshot = longTask.takeSnapshot();
			this.count = snapshot.count();
			this.sum = snapshot.total(TimeUnit.SECONDS);
			if (series.percentiles) {
				this.quantiles = sortByPercentile(snapshot.percentileValues());
			}
		}
		else {
			FunctionTimer timer = (FunctionTimer) meter;
			this.count = (long) timer.count();
			this.sum = timer.totalTime(TimeUnit.SECONDS);
		}
	}

	/**
	 * Return the value of a quantile as it is written.
	 * @param quantile one of {@link #quantiles}
	 * @return its value, in seconds for a time
	 */
	double value(ValueAtPercentile quantile) {
		return this.seconds ? quantile.value(TimeUnit.SECONDS) : quantile.value();
	}

	/**
	 * Quantiles come out in ascending order, as client_java sorts them; the array is the
	 * snapshot's own, and tiny, so it is sorted in place.
	 * @param values the snapshot's quantiles
	 * @return the same array
	 */
	private static ValueAtPercentile[] sortByPercentile(ValueAtPercentile[] values) {
		for (int i = 1; i < values.length; i++) {
			ValueAtPercentile value = values[i];
			int j = i - 1;
			while (j >= 0 && values[j].percentile() > value.percentile()) {
				values[j + 1] = values[j];
				j--;
			}
			values[j + 1] = value;
		}
		return values;
	}

}
