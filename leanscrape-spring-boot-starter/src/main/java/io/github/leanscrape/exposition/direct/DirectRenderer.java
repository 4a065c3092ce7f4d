package io.github.leanscrape.exposition.direct;

import java.io.IOException;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ExpositionRenderer;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderInputs;
import io.github.leanscrape.exposition.direct.MeterIndex.ScrapePlan;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.config.PrometheusPropertiesLoader;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

/**
 * Writes text 0.0.4, OpenMetrics 1.0.0 and protobuf straight from the meters of a
 * {@link PrometheusMeterRegistry}: metadata and labels were encoded when the meters were
 * added ({@link MeterIndex}), so a scrape reads values and copies bytes
 * ({@link TextFamilyWriter}, {@link ProtobufFamilyWriter}).
 * <p>
 * Where its bytes cannot be promised, the reference path answers: for the whole scrape
 * ({@link FallbackPolicy}), or for one Prometheus name, written by client_java in its
 * sorted place ({@link ReferenceFamilies}), as are collectors outside Micrometer.
 *
 * @author leanscrape
 */
public final class DirectRenderer implements ExpositionRenderer, RenderStatistics {

	private final ReferenceRenderer reference;

	private final MeterIndex index;

	private final FallbackPolicy fallbacks;

	private final ReferenceFamilies referenceFamilies;

	private final CardinalityTracker cardinality;

	private final CreatedTimestamps createdTimestamps;

	/**
	 * Whether the text formats write {@code _created} samples, as client_java is set up.
	 */
	private final boolean createdInText;

	/**
	 * Whether text 0.0.4 writes them in integer milliseconds rather than in seconds.
	 */
	private final boolean createdInMillis;

	private final AtomicLong directScrapes = new AtomicLong();

	private final AtomicLong copiedBlocks = new AtomicLong();

	/** The records of the text bodies this renderer wrote, reused. */
	private final BlockRecord.Pool records = new BlockRecord.Pool();

	/** Whether OpenMetrics scrapes carry exemplars, read from the meters. */
	private final boolean writesExemplars;

	/**
	 * Whether exemplars go on _count and quantile lines too, as client_java is set up.
	 */
	private final boolean exemplarsOnAllMetricTypes;

	/**
	 * Create a renderer for a registry.
	 * @param meterRegistry the registry whose meters are written
	 * @param config the registry's configuration
	 * @param exporterProperties client_java's exporter properties, as given to Spring
	 * Boot's endpoint
	 * @param reference the reference renderer of the registry that is scraped
	 * @param cardinalityWarnThreshold the series in one scrape above which a warning is
	 * logged, once
	 */
	public DirectRenderer(PrometheusMeterRegistry meterRegistry, PrometheusConfig config,
			@Nullable Properties exporterProperties, ReferenceRenderer reference, long cardinalityWarnThreshold) {
		this(meterRegistry, config, exporterProperties, reference, cardinalityWarnThreshold,
				new MicrometerInternals(meterRegistry), ExemplarLocator.isUsable() ? new ExemplarLocator() : null,
				CustomStatistics.CREATED_ONCE);
	}

	/**
	 * Create a renderer for a registry, with what it reads of the registries' internals
	 * given: the tests give what another version of Micrometer or client_java would.
	 * @param meterRegistry the registry whose meters are written
	 * @param config the registry's configuration
	 * @param exporterProperties client_java's exporter properties, as given to Spring
	 * Boot's endpoint
	 * @param reference the reference renderer of the registry that is scraped
	 * @param cardinalityWarnThreshold the series in one scrape above which a warning is
	 * logged, once
	 * @param internals what the registries' public API does not tell
	 * @param exemplarLocator finds the exemplar slots of meters, or {@code null} when
	 * they cannot be read
	 * @param customMeters whether custom meters are written directly
	 */
	DirectRenderer(PrometheusMeterRegistry meterRegistry, PrometheusConfig config,
			@Nullable Properties exporterProperties, ReferenceRenderer reference, long cardinalityWarnThreshold,
			MicrometerInternals internals, @Nullable ExemplarLocator exemplarLocator, boolean customMeters) {
		this.reference = reference;
		ExporterProperties exporter = ((exporterProperties != null)
				? PrometheusPropertiesLoader.load(exporterProperties) : PrometheusPropertiesLoader.load())
			.getExporterProperties();
		boolean exemplars = internals.exemplarsPossible();
		this.exemplarsOnAllMetricTypes = exporter.getExemplarsOnAllMetricTypes();
		this.createdInText = exporter.getIncludeCreatedTimestamps();
		this.createdInMillis = exporter.getPrometheusTimestampsInMs();
		this.fallbacks = new FallbackPolicy(internals, meterRegistry.getPrometheusRegistry() == reference.registry(),
				exemplars && exemplarLocator == null);
		this.writesExemplars = exemplars && exemplarLocator != null;
		this.referenceFamilies = new ReferenceFamilies(internals, reference, this.createdInText, this.fallbacks);
		this.createdTimestamps = new CreatedTimestamps(internals);
		this.cardinality = new CardinalityTracker(cardinalityWarnThreshold);
		this.index = new MeterIndex(meterRegistry, internals.descriptions(config),
				this.writesExemplars ? exemplarLocator : null, internals, customMeters);
	}

	@Override
	public void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ChunkedOutput out)
			throws IOException {
		render(format, includedNames, out, RenderInputs.NONE);
	}

	@Override
	public void render(PrometheusOutputFormat format, @Nullable Set<String> includedNames, ChunkedOutput out,
			RenderInputs inputs) throws IOException {
		FallbackReason reason = this.fallbacks.wholeScrapeReason(format);
		if (reason != null) {
			this.fallbacks.wholeScrape(reason, format, null);
			this.reference.render(format, includedNames, out);
			return;
		}
		ScrapePlan plan = this.index.plan();
		TextFormat textFormat = TextFormat.of(format);
		Predicate<String> filter = (includedNames != null) ? includedNames::contains : null;
		Family unlearned = (textFormat == null || this.createdInText) ? learnCreatedTimestamps(plan, filter, textFormat)
				: null;
		if (unlearned != null) {
			this.fallbacks.wholeScrape(FallbackReason.CREATED_TIMESTAMPS_NOT_READABLE, format, unlearned.name);
			this.reference.render(format, includedNames, out);
			return;
		}
		// Counts the families it collects by reason, or the scrape that cannot merge
		// them.
		List<MetricSnapshot> referenceSnapshots = this.referenceFamilies.collect(plan, includedNames, format);
		if (referenceSnapshots == null) {
			this.reference.render(format, includedNames, out);
			return;
		}
		boolean full = includedNames == null;
		Family[] families = plan.families();
		Series[][] series = plan.series();
		FamilyReport[] referenceReports = full ? new FamilyReport[referenceSnapshots.size()] : null;
		int next = 0;
		long samples = 0;
		ExemplarScrape exemplars = (this.writesExemplars && textFormat != TextFormat.TEXT_004)
				? new ExemplarScrape(System.currentTimeMillis(), this.exemplarsOnAllMetricTypes) : null;
		BlockCopier blocks = (textFormat != null && (inputs.kept() || inputs.copyFrom() != null))
				? blockCopier(out, inputs.copyFrom()) : null;
		try (ScrapeWorkspace workspace = new ScrapeWorkspace(out, exemplars, this.createdInText, blocks)) {
			for (int i = 0; i < families.length; i++) {
				Family family = families[i];
				boolean collected = isCollected(plan, i, filter);
				if (!collected || (filter != null && !filter.test(family.name))) {
					if (collected && plan.functions()[i]) {
						// Left out by the filter, but collected by Spring Boot's
						// endpoint, whose functions then run.
						MeterValues.evaluateFunctions(family, series[i]);
					}
					continue;
				}
				// Segments end between families, where they stay while the meters do.
				out.endSegmentAt(family.name.hashCode());
				while (next < referenceSnapshots.size()
						&& ReferenceFamilies.name(referenceSnapshots.get(next)).compareTo(family.name) < 0) {
					samples += this.referenceFamilies.write(referenceSnapshots.get(next), format, out, referenceReports,
							next);
					next++;
				}
				if (textFormat != null) {
					TextFamilyWriter.writeFamily(family, series[i], textFormat, workspace, out, full);
				}
				else {
					ProtobufFamilyWriter.writeFamily(family, series[i], workspace, out, full);
				}
				samples += full ? family.lastLines : 0;
			}
		}
		while (next < referenceSnapshots.size()) {
			samples += this.referenceFamilies.write(referenceSnapshots.get(next), format, out, referenceReports, next);
			next++;
		}
		if (textFormat == TextFormat.TEXT_004 && this.createdInText) {
			samples += writeCreatedFamilies(plan, filter, referenceSnapshots, out, referenceReports);
		}
		if (textFormat != null) {
			textFormat.end(out);
		}
		this.directScrapes.incrementAndGet();
		if (blocks != null) {
			this.copiedBlocks.addAndGet(blocks.copied());
		}
		if (referenceReports != null) {
			// A full scrape: the report of the families it wrote.
			this.cardinality.fullScrape(format, plan, referenceReports, samples, out.size());
		}
	}

	/**
	 * Make the copier of a text scrape offered a last body: its record goes with the
	 * output, and the last body is copied from where this renderer wrote it, in either
	 * text format ({@link BlockRecord}). A scrape whose body is not kept and that is
	 * offered no last body records nothing: its record would never be read.
	 * @param out the output
	 * @param previousBody the last body offered, or {@code null}
	 * @return the copier
	 */
	private BlockCopier blockCopier(ChunkedOutput out, @Nullable PooledBody previousBody) {
		BlockRecord record = this.records.take();
		out.setRecord(record);
		BlockRecord previous = (previousBody != null && previousBody.record() instanceof BlockRecord last
				&& last.isOf(this.records)) ? last : null;
		return new BlockCopier(previousBody, previous, record);
	}

	/**
	 * Write the {@code _created} gauge families that text 0.0.4 has after every other
	 * family, in the order of the families they belong to, the reference path's among
	 * them.
	 * @param plan the scrape's plan
	 * @param filter the families to include, or {@code null} for all
	 * @param referenceSnapshots the families the reference path writes, in order
	 * @param out the output
	 * @param referenceReports where a full scrape keeps the reference families' figures,
	 * or {@code null}
	 * @return the sample lines written
	 * @throws IOException when client_java's writer fails
	 */
	private long writeCreatedFamilies(ScrapePlan plan, @Nullable Predicate<String> filter,
			List<MetricSnapshot> referenceSnapshots, ChunkedOutput out, FamilyReport @Nullable [] referenceReports)
			throws IOException {
		Family[] families = plan.families();
		Series[][] series = plan.series();
		int next = 0;
		long samples = 0;
		for (int i = 0; i < families.length; i++) {
			Family family = families[i];
			if (!family.kind.hasCreated() || !writes(plan, i, filter)) {
				continue;
			}
			while (next < referenceSnapshots.size()
					&& ReferenceFamilies.name(referenceSnapshots.get(next)).compareTo(family.name) < 0) {
				samples += this.referenceFamilies.writeCreated(referenceSnapshots.get(next), out, referenceReports,
						next);
				next++;
			}
			long start = out.size();
			int lines = CreatedLines.writeFamily(family, series[i], this.createdInMillis, out);
			if (filter == null) {
				family.lastLines += lines;
				family.lastBytes += out.size() - start;
			}
			samples += lines;
		}
		while (next < referenceSnapshots.size()) {
			samples += this.referenceFamilies.writeCreated(referenceSnapshots.get(next), out, referenceReports, next);
			next++;
		}
		return samples;
	}

	/**
	 * Learn the created timestamps that a scrape writes: a protobuf scrape's counters',
	 * or, when the text formats write {@code _created} samples, those of all counters,
	 * summaries and histograms.
	 * @param plan the scrape's plan
	 * @param filter the families to include, or {@code null} for all
	 * @param textFormat the scrape's text format, or {@code null} for protobuf
	 * @return the first family whose timestamps could not all be learned, or {@code null}
	 * when all were
	 */
	private @Nullable Family learnCreatedTimestamps(ScrapePlan plan, @Nullable Predicate<String> filter,
			@Nullable TextFormat textFormat) {
		Family[] families = plan.families();
		for (int i = 0; i < families.length; i++) {
			Family family = families[i];
			boolean written = (textFormat != null) ? family.kind.hasCreated() : family.kind == SeriesKind.COUNTER;
			if (written && writes(plan, i, filter) && !this.createdTimestamps.learn(family, plan.series()[i])) {
				return family;
			}
		}
		return null;
	}

	/**
	 * Return whether Spring Boot's endpoint writes a family in a scrape: the filter, if
	 * any, includes it, and its collector is collected ({@link #isCollected}).
	 * @param plan the scrape's plan
	 * @param index the family's index in the plan
	 * @param filter the families to include, or {@code null} for all
	 * @return {@code true} when the family is written
	 */
	private boolean writes(ScrapePlan plan, int index, @Nullable Predicate<String> filter) {
		return (filter == null || filter.test(plan.families()[index].name)) && isCollected(plan, index, filter);
	}

	/**
	 * Return whether client_java's registry collects, for Spring Boot's endpoint, the
	 * collector of a family's meters: it is in the registry (Micrometer 1.18 keeps none
	 * for a meter whose families client_java refused, a family name another collector
	 * has; the plan knows), and with a name filter, the registry does not skip it (it
	 * does when the collector described families at registration, none of them included).
	 * @param plan the scrape's plan
	 * @param index the family's index in the plan
	 * @param filter the families to include, or {@code null} for all
	 * @return {@code true} when the collector is collected
	 */
	private boolean isCollected(ScrapePlan plan, int index, @Nullable Predicate<String> filter) {
		return plan.exported()[index]
				&& (filter == null || this.referenceFamilies.isCollected(plan.families()[index].collectorName, filter));
	}

	/**
	 * Return how many blocks of series were copied from the last body of their kind.
	 * @return the count
	 */
	public long copiedBlocks() {
		return this.copiedBlocks.get();
	}

	/**
	 * Return how many scrapes the direct path wrote.
	 * @return the count
	 */
	long directScrapes() {
		return this.directScrapes.get();
	}

	@Override
	public long wholeScrapeFallbacks() {
		return this.fallbacks.wholeScrapes();
	}

	@Override
	public long familyFallbacks() {
		return this.fallbacks.families();
	}

	@Override
	public @Nullable CardinalityReport cardinality() {
		return this.cardinality.report(this.fallbacks.wholeScrapes(), this.fallbacks.wholeScrapeReasons(),
				this.fallbacks.families(), this.fallbacks.familyReasons());
	}

}
