package io.github.leanscrape.exposition.direct;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.leanscrape.exposition.FormatNames;
import io.github.leanscrape.exposition.ReferenceScrapeRenderer;
import io.github.leanscrape.exposition.ScrapeBuffer;
import io.github.leanscrape.exposition.ScrapeRenderer;
import io.github.leanscrape.exposition.direct.MeterIndex.ScrapePlan;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusDistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusTimer;
import io.prometheus.metrics.config.PrometheusPropertiesLoader;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Writes text 0.0.4 and OpenMetrics 1.0.0 straight from the meters of a
 * {@link PrometheusMeterRegistry}: metadata lines and series labels were encoded when the
 * meters were added, so a scrape reads values and copies bytes. No label objects, no
 * snapshots of counters or gauges, no sorting, no strings per series.
 * <p>
 * Where the same bytes cannot be promised, the reference path answers: for one Prometheus
 * name (meters this class does not write, see {@link ShapeOfMeter}), whose families are
 * collected from the registry's own collector and written by client_java's writer in
 * their place; or for the whole scrape (protobuf, created timestamps, exemplars in
 * OpenMetrics, collectors registered outside Micrometer, two sources of one family name).
 * Each kind of fallback is counted and logged once at debug level.
 *
 * @author leanscrape
 */
public final class DirectTextRenderer implements ScrapeRenderer {

	/**
	 * How many counter or gauge values a scrape reads ahead of writing their lines: enough
	 * for the reads to overlap, little enough to stay in the fastest cache.
	 */
	private static final int VALUE_BLOCK = 64;

	private static final Log logger = LogFactory.getLog(DirectTextRenderer.class);

	private static final byte[] EOF = { '#', ' ', 'E', 'O', 'F', '\n' };

	private static final byte[] LE = { 'l', 'e', '=', '"' };

	private static final byte[] QUANTILE = { 'q', 'u', 'a', 'n', 't', 'i', 'l', 'e', '=', '"' };

	private final ReferenceScrapeRenderer reference;

	private final MicrometerInternals internals;

	private final MeterIndex index;

	private final boolean createdTimestamps;

	private final AtomicLong directScrapes = new AtomicLong();

	private final AtomicLong referenceScrapes = new AtomicLong();

	private final AtomicLong referenceFamilies = new AtomicLong();

	private final Set<String> loggedReasons = ConcurrentHashMap.newKeySet();

	private volatile @Nullable LastScrape lastFullScrape;

	private volatile long cardinalityWarnThreshold = Long.MAX_VALUE;

	private volatile boolean cardinalityWarned;

	/**
	 * Create a renderer for a registry.
	 * @param meterRegistry the registry whose meters are written
	 * @param config the registry's configuration
	 * @param exporterProperties client_java's exporter properties, as given to Spring
	 * Boot's endpoint
	 * @param reference the reference renderer on the same registry
	 */
	public DirectTextRenderer(PrometheusMeterRegistry meterRegistry, PrometheusConfig config,
			@Nullable Properties exporterProperties, ReferenceScrapeRenderer reference) {
		this.reference = reference;
		this.internals = new MicrometerInternals(meterRegistry);
		this.createdTimestamps = ((exporterProperties != null) ? PrometheusPropertiesLoader.load(exporterProperties)
				: PrometheusPropertiesLoader.load())
			.getExporterProperties()
			.getIncludeCreatedTimestamps();
		this.index = new MeterIndex(meterRegistry, this.internals.descriptions(config));
	}

	@Override
	public void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ScrapeBuffer out)
			throws IOException {
		String reason = wholeScrapeFallbackReason(format);
		if (reason != null) {
			renderReference(reason, format, includedNames, out);
			return;
		}
		ScrapePlan plan = this.index.plan();
		List<MetricSnapshot> referenceSnapshots = collectReference(plan, includedNames);
		if (referenceSnapshots == null) {
			renderReference("a family fed by more than one source", format, includedNames, out);
			return;
		}
		boolean openMetrics = format == PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;
		boolean full = includedNames == null;
		Family[] families = plan.families();
		Series[][] series = plan.series();
		FamilyReport[] referenceReports = full ? new FamilyReport[referenceSnapshots.size()] : null;
		int next = 0;
		long lines = 0;
		double[] values = new double[VALUE_BLOCK];
		for (int i = 0; i < families.length; i++) {
			Family family = families[i];
			if (!full && !includedNames.contains(family.name)) {
				evaluateFunctions(family, series[i]);
				continue;
			}
			while (next < referenceSnapshots.size()
					&& name(referenceSnapshots.get(next)).compareTo(family.name) < 0) {
				lines += writeReference(referenceSnapshots.get(next), format, out, referenceReports, next);
				next++;
			}
			writeFamily(family, series[i], openMetrics, values, out, full);
			lines += full ? family.lastLines : 0;
		}
		while (next < referenceSnapshots.size()) {
			lines += writeReference(referenceSnapshots.get(next), format, out, referenceReports, next);
			next++;
		}
		if (openMetrics) {
			out.write(EOF);
		}
		this.directScrapes.incrementAndGet();
		if (full) {
			this.lastFullScrape = new LastScrape(format, plan, referenceReports, lines, out.size());
			warnAboutCardinality(lines);
		}
	}

	private void warnAboutCardinality(long lines) {
		if (lines > this.cardinalityWarnThreshold && !this.cardinalityWarned) {
			this.cardinalityWarned = true;
			logger.warn("A scrape wrote " + lines + " series, more than leanscrape.cardinality.warn-threshold ("
					+ this.cardinalityWarnThreshold + "); the 'leanscrape' actuator endpoint shows which "
					+ "families hold them. This is logged once.");
		}
	}

	/**
	 * Return what the last full scrape written by the direct path held, family by family,
	 * largest first.
	 * @return the report, or {@code null} before the first full direct scrape
	 */
	public @Nullable CardinalityReport cardinality() {
		LastScrape last = this.lastFullScrape;
		if (last == null) {
			return null;
		}
		List<FamilyReport> reports = new ArrayList<>();
		for (Family family : last.plan.families()) {
			reports.add(new FamilyReport(family.name, family.lastLines, family.lastBytes, "direct"));
		}
		for (FamilyReport report : last.referenceReports) {
			if (report != null) {
				reports.add(report);
			}
		}
		reports.sort((a, b) -> (a.bytes() != b.bytes()) ? Long.compare(b.bytes(), a.bytes())
				: a.name().compareTo(b.name()));
		return new CardinalityReport(FormatNames.of(last.format), last.lines, last.bytes,
				this.referenceScrapes.get(), reports);
	}

	/**
	 * Set the number of series above which a scrape logs a warning, once.
	 * @param threshold the threshold
	 */
	public void cardinalityWarnThreshold(long threshold) {
		this.cardinalityWarnThreshold = threshold;
	}

	private @Nullable String wholeScrapeFallbackReason(PrometheusOutputFormat format) {
		if (format == PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF) {
			return "protobuf";
		}
		if (this.createdTimestamps) {
			return "created timestamps";
		}
		if (!this.internals.isUsable()) {
			return "registry internals not visible";
		}
		if (format == PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100 && this.internals.exemplarsPossible()) {
			return "exemplars in OpenMetrics";
		}
		if (this.internals.hasForeignCollectors()) {
			return "collectors registered outside Micrometer";
		}
		return null;
	}

	private void renderReference(String reason, PrometheusOutputFormat format, @Nullable Set<String> includedNames,
			ScrapeBuffer out) throws IOException {
		this.referenceScrapes.incrementAndGet();
		logOnce(reason, "Scrape in " + format + " served by the reference path: " + reason);
		this.reference.render(format, includedNames, out);
	}

	/**
	 * Collect the families of the names left to the reference path, sorted by name, or
	 * return {@code null} when one of them shares its name with another family.
	 */
	private @Nullable List<MetricSnapshot> collectReference(ScrapePlan plan, @Nullable Set<String> includedNames) {
		String[] names = plan.referenceNames();
		if (names.length == 0) {
			return List.of();
		}
		List<MetricSnapshot> snapshots = new ArrayList<>();
		for (String name : names) {
			MultiCollector collector = this.internals.collector(name);
			if (collector == null) {
				continue;
			}
			for (MetricSnapshot snapshot : collector.collect()) {
				if (includedNames == null || includedNames.contains(name(snapshot))) {
					snapshots.add(snapshot);
				}
			}
		}
		snapshots.sort((a, b) -> name(a).compareTo(name(b)));
		for (int i = 0; i < snapshots.size(); i++) {
			String name = name(snapshots.get(i));
			if (plan.family(name) != null || (i > 0 && name.equals(name(snapshots.get(i - 1))))) {
				return null;
			}
		}
		if (!snapshots.isEmpty()) {
			this.referenceFamilies.addAndGet(snapshots.size());
			logOnce("family", "Families written by the reference path: " + names.length
					+ " Prometheus name(s), e.g. " + names[0]);
		}
		return snapshots;
	}

	private static String name(MetricSnapshot snapshot) {
		return snapshot.getMetadata().getPrometheusName();
	}

	private int writeReference(MetricSnapshot snapshot, PrometheusOutputFormat format, ScrapeBuffer out,
			FamilyReport @Nullable [] reports, int index) throws IOException {
		if (snapshot.getDataPoints().isEmpty()) {
			return 0;
		}
		ExpositionFormatWriter writer = this.reference.writer(format);
		ByteArrayOutputStream family = new ByteArrayOutputStream(256);
		writer.write(family, new MetricSnapshots(snapshot));
		byte[] bytes = family.toByteArray();
		int length = bytes.length;
		if (format == PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100) {
			// client_java ends every OpenMetrics exposition with # EOF; this is one family
			// of a larger exposition.
			length -= EOF.length;
		}
		out.write(bytes, 0, length);
		int lines = sampleLines(bytes, length);
		if (reports != null) {
			reports[index] = new FamilyReport(name(snapshot), lines, length, "reference");
		}
		return lines;
	}

	private static int sampleLines(byte[] bytes, int length) {
		int lines = 0;
		boolean lineStart = true;
		for (int i = 0; i < length; i++) {
			if (lineStart && bytes[i] != '#') {
				lines++;
			}
			lineStart = bytes[i] == '\n';
		}
		return lines;
	}

	/**
	 * Call the functions of an excluded family's function meters. Spring Boot's endpoint
	 * collects every meter even when a name filter excludes it, so a function that throws,
	 * or a function counter gone negative, fails its scrape; so it fails here too.
	 */
	private static void evaluateFunctions(Family family, Series[] series) {
		if (family.kind != SeriesKind.COUNTER && family.kind != SeriesKind.SUMMARY) {
			return;
		}
		for (Series each : series) {
			if (each.meter instanceof FunctionCounter counter) {
				double value = counter.count();
				if (value < 0) {
					throw new IllegalArgumentException(value + ": counters cannot have a negative value");
				}
			}
			else if (each.meter instanceof FunctionTimer timer) {
				timer.count();
				timer.totalTime(TimeUnit.SECONDS);
			}
		}
	}

	private static void writeFamily(Family family, Series[] series, boolean openMetrics, double[] values,
			ScrapeBuffer out, boolean full) {
		long start = out.size();
		out.write(openMetrics ? family.openMetricsMetadata : family.textMetadata);
		int lines = switch (family.kind) {
			case COUNTER -> writeCounters(family, series, values, out);
			case GAUGE -> writeGauges(family, series, values, out);
			case MAX -> writeMaxima(family, series, out);
			case SUMMARY -> writeSummaries(family, series, out);
			case HISTOGRAM -> writeHistograms(family, series, openMetrics, out);
		};
		if (full) {
			family.lastLines = lines;
			family.lastBytes = out.size() - start;
		}
	}

	/**
	 * Write counters a block at a time: first read the block's values, then write its lines.
	 * Each read follows a chain of references (series, meter, adder) into objects spread
	 * over the heap, which usually miss the CPU's caches; in a loop that does only that, the
	 * processor has many chains in flight at once, where between the writes of a line it had
	 * one (at 100,000 series, the reads went from about half of the scrape's time to a small
	 * part of it).
	 */
	private static int writeCounters(Family family, Series[] series, double[] values, ScrapeBuffer out) {
		for (int start = 0; start < series.length; start += values.length) {
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				Meter meter = series[i].meter;
				values[i - start] = (meter instanceof Counter counter) ? counter.count()
						: ((FunctionCounter) meter).count();
			}
			for (int i = start; i < end; i++) {
				double value = values[i - start];
				if (value < 0) {
					// As client_java rejects it: the whole scrape fails, as it would without
					// the starter.
					throw new IllegalArgumentException(value + ": counters cannot have a negative value");
				}
				writeSample(family.sampleName, series[i].labels, out);
				out.writeDouble(value);
				out.write('\n');
			}
		}
		return series.length;
	}

	/**
	 * Write gauges a block at a time, as {@link #writeCounters} does and for the same reason.
	 */
	private static int writeGauges(Family family, Series[] series, double[] values, ScrapeBuffer out) {
		for (int start = 0; start < series.length; start += values.length) {
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				values[i - start] = ((Gauge) series[i].meter).value();
			}
			for (int i = start; i < end; i++) {
				writeSample(family.sampleName, series[i].labels, out);
				out.writeDouble(values[i - start]);
				out.write('\n');
			}
		}
		return series.length;
	}

	private static int writeMaxima(Family family, Series[] series, ScrapeBuffer out) {
		for (Series each : series) {
			Meter meter = each.meter;
			double max = (meter instanceof Timer timer) ? timer.max(TimeUnit.SECONDS)
					: ((DistributionSummary) meter).max();
			writeSample(family.sampleName, each.labels, out);
			out.writeDouble(max);
			out.write('\n');
		}
		return series.length;
	}

	private static int writeSummaries(Family family, Series[] series, ScrapeBuffer out) {
		int lines = 0;
		for (Series each : series) {
			Meter meter = each.meter;
			long count;
			double sum;
			if (meter instanceof Timer timer) {
				if (each.percentiles) {
					HistogramSnapshot snapshot = timer.takeSnapshot();
					count = snapshot.count();
					sum = snapshot.total(TimeUnit.SECONDS);
					lines += writeQuantiles(family, each, snapshot.percentileValues(), true, out);
				}
				else {
					count = timer.count();
					sum = timer.totalTime(TimeUnit.SECONDS);
				}
			}
			else if (meter instanceof DistributionSummary summary) {
				if (each.percentiles) {
					lines += writeQuantiles(family, each, summary.takeSnapshot().percentileValues(), false, out);
				}
				count = summary.count();
				sum = summary.totalAmount();
			}
			else {
				FunctionTimer timer = (FunctionTimer) meter;
				count = (long) timer.count();
				sum = timer.totalTime(TimeUnit.SECONDS);
			}
			lines += writeCountAndSum(family, each, count, sum, out);
		}
		return lines;
	}

	private static int writeQuantiles(Family family, Series series, ValueAtPercentile[] values, boolean seconds,
			ScrapeBuffer out) {
		sortByPercentile(values);
		for (ValueAtPercentile value : values) {
			out.write(family.sampleName);
			openLabels(series.labels, out);
			out.write(QUANTILE);
			out.writeDouble(value.percentile());
			closeLabels(out);
			out.writeDouble(seconds ? value.value(TimeUnit.SECONDS) : value.value());
			out.write('\n');
		}
		return values.length;
	}

	/**
	 * Quantiles come out in ascending order, as client_java sorts them; the array is the
	 * snapshot's own, and tiny, so it is sorted in place.
	 */
	private static void sortByPercentile(ValueAtPercentile[] values) {
		for (int i = 1; i < values.length; i++) {
			ValueAtPercentile value = values[i];
			int j = i - 1;
			while (j >= 0 && values[j].percentile() > value.percentile()) {
				values[j + 1] = values[j];
				j--;
			}
			values[j + 1] = value;
		}
	}

	private static int writeHistograms(Family family, Series[] series, boolean openMetrics, ScrapeBuffer out) {
		int lines = 0;
		for (Series each : series) {
			Meter meter = each.meter;
			CountAtBucket[] buckets;
			long count;
			double sum;
			boolean seconds = meter instanceof PrometheusTimer;
			if (seconds) {
				PrometheusTimer timer = (PrometheusTimer) meter;
				buckets = timer.histogramCounts();
				count = timer.count();
				sum = timer.totalTime(TimeUnit.SECONDS);
			}
			else {
				PrometheusDistributionSummary summary = (PrometheusDistributionSummary) meter;
				buckets = summary.histogramCounts();
				count = summary.count();
				sum = summary.totalAmount();
			}
			lines += buckets.length + (Double.isFinite(buckets[buckets.length - 1].bucket()) ? 1 : 0);
			long cumulative = writeBuckets(family, each, buckets, count, seconds, out);
			if (!openMetrics || !Double.isNaN(sum)) {
				// OpenMetrics writes _count and _sum together or not at all.
				lines += writeCountAndSum(family, each, cumulative, sum, out);
			}
		}
		return lines;
	}

	/**
	 * Write the bucket lines as client_java does after Micrometer handed it per-bucket
	 * counts: Micrometer's cumulative counts are turned into differences (truncated to
	 * whole numbers) and summed up again, and a {@code +Inf} bucket is added when the last
	 * bound is finite.
	 * @return the total count, which client_java writes as {@code _count}
	 */
	private static long writeBuckets(Family family, Series series, CountAtBucket[] buckets, long count,
			boolean seconds, ScrapeBuffer out) {
		long cumulative = 0;
		double previous = 0;
		for (int i = 0; i < buckets.length; i++) {
			double bucketCount = buckets[i].count();
			cumulative += (long) ((i == 0) ? bucketCount : bucketCount - previous);
			previous = bucketCount;
			writeBucket(family, series, seconds ? buckets[i].bucket(TimeUnit.SECONDS) : buckets[i].bucket(),
					cumulative, out);
		}
		double last = buckets[buckets.length - 1].bucket();
		if (Double.isFinite(last)) {
			double infinite = count - previous;
			cumulative += (long) ((infinite >= 0) ? infinite : 0);
			writeBucket(family, series, Double.POSITIVE_INFINITY, cumulative, out);
		}
		return cumulative;
	}

	private static void writeBucket(Family family, Series series, double bound, long cumulative, ScrapeBuffer out) {
		out.write(family.bucketName);
		openLabels(series.labels, out);
		out.write(LE);
		out.writeDouble(bound);
		closeLabels(out);
		out.writeLong(cumulative);
		out.write('\n');
	}

	private static int writeCountAndSum(Family family, Series series, long count, double sum, ScrapeBuffer out) {
		int lines = 0;
		if (count >= 0) {
			writeSample(family.countName, series.labels, out);
			out.writeLong(count);
			out.write('\n');
			lines++;
		}
		if (!Double.isNaN(sum)) {
			writeSample(family.sumName, series.labels, out);
			out.writeDouble(sum);
			out.write('\n');
			lines++;
		}
		return lines;
	}

	private static void writeSample(byte[] name, byte[] labels, ScrapeBuffer out) {
		out.write(name);
		out.write(labels);
		out.write(' ');
	}

	/**
	 * Write the labels up to where an extra label ({@code le}, {@code quantile}) goes: all
	 * but the closing brace, and a comma; or just the opening brace.
	 */
	private static void openLabels(byte[] labels, ScrapeBuffer out) {
		if (labels.length == 0) {
			out.write('{');
		}
		else {
			out.write(labels, 0, labels.length - 1);
			out.write(',');
		}
	}

	private static void closeLabels(ScrapeBuffer out) {
		out.write('"');
		out.write('}');
		out.write(' ');
	}

	private void logOnce(String reason, String message) {
		if (logger.isDebugEnabled() && this.loggedReasons.add(reason)) {
			logger.debug(message);
		}
	}

	/**
	 * Return how many scrapes the direct path wrote.
	 * @return the count
	 */
	public long directScrapes() {
		return this.directScrapes.get();
	}

	/**
	 * Return how many scrapes went to the reference path as a whole.
	 * @return the count
	 */
	public long referenceScrapes() {
		return this.referenceScrapes.get();
	}

	/**
	 * Return how many families, summed over all scrapes, the reference path wrote inside
	 * direct scrapes.
	 * @return the count
	 */
	public long referenceFamilies() {
		return this.referenceFamilies.get();
	}

	/**
	 * What the last full direct scrape held; the direct families' figures live in the
	 * families themselves.
	 */
	private record LastScrape(PrometheusOutputFormat format, ScrapePlan plan, FamilyReport[] referenceReports,
			long lines, long bytes) {

	}

}
