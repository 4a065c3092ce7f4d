package io.github.leanscrape.exposition.direct;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import io.github.leanscrape.exposition.direct.LabelEncoder.SortKey;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.config.NamingConvention;
import io.prometheus.metrics.model.snapshots.PrometheusNaming;
import org.jspecify.annotations.Nullable;

/**
 * The registry's meters, kept in exposition order as they come and go: families sorted by
 * name, each with its series, plus the Prometheus names left to the reference path.
 * <p>
 * Meters are added and removed by the registry's listeners under this index's lock; a
 * scrape holds the lock only to take a {@link ScrapePlan} (the families and the arrays of
 * their series, reordered first where something changed), and reads every value after
 * releasing it. Recording into a meter never touches the lock.
 *
 * @author leanscrape
 */
final class MeterIndex {

	/**
	 * The series of a meter whose name is left to the reference path: none.
	 */
	private static final Series[] NO_SERIES = new Series[0];

	private final MeterRegistry registry;

	private final LabelEncoder labelEncoder;

	private final boolean descriptions;

	/** Finds the exemplar slots of meters, when the registry samples exemplars. */
	private final @Nullable ExemplarLocator exemplars;

	private final Map<String, MeterFamilies> byConventionName = new HashMap<>();

	private final TreeMap<String, Family> families = new TreeMap<>();

	/** Tells whether the registry collects the meters of a Prometheus name. */
	private final MicrometerInternals internals;

	/** Whether custom meters are written directly. */
	private final boolean customMeters;

	/**
	 * The plan of the last scrape, for the scrapes after it; dropped when meters are
	 * added or removed, so that it keeps no removed meter alive until the next scrape.
	 */
	private @Nullable ScrapePlan lastPlan;

	/**
	 * Create an index of a registry's meters, kept up to date by its listeners.
	 * @param registry the registry
	 * @param descriptions whether families have the meters' descriptions as help
	 * @param exemplars finds the exemplar slots of meters, or {@code null} when the
	 * registry samples none
	 * @param internals tells whether the registry collects the meters of a Prometheus
	 * name: asked again only when meters were added or removed, since the registry gains
	 * or loses a collector only then
	 */
	MeterIndex(MeterRegistry registry, boolean descriptions, @Nullable ExemplarLocator exemplars,
			MicrometerInternals internals) {
		this(registry, descriptions, exemplars, internals, CustomStatistics.CREATED_ONCE);
	}

	/**
	 * Create an index of a registry's meters, kept up to date by its listeners.
	 * @param registry the registry
	 * @param descriptions whether families have the meters' descriptions as help
	 * @param exemplars finds the exemplar slots of meters, or {@code null} when the
	 * registry samples none
	 * @param internals tells whether the registry collects the meters of a Prometheus
	 * name
	 * @param customMeters whether custom meters are written directly: not where the
	 * registry reads the clock for their created timestamps at every scrape
	 * ({@link CustomStatistics#CREATED_ONCE})
	 */
	MeterIndex(MeterRegistry registry, boolean descriptions, @Nullable ExemplarLocator exemplars,
			MicrometerInternals internals, boolean customMeters) {
		this.registry = registry;
		this.customMeters = customMeters;
		this.labelEncoder = new LabelEncoder(namingConvention());
		this.descriptions = descriptions;
		this.exemplars = exemplars;
		this.internals = internals;
		registry.config().onMeterAdded(this::add);
		registry.config().onMeterRemoved(this::remove);
		// Meters registered before the listeners; adding twice is harmless.
		registry.forEachMeter(this::add);
	}

	private NamingConvention namingConvention() {
		return this.registry.config().namingConvention();
	}

	synchronized void add(Meter meter) {
		Meter.Id id = meter.getId();
		String conventionName = id.getConventionName(namingConvention());
		MeterFamilies entry = this.byConventionName.get(conventionName);
		if (entry != null && entry.series.containsKey(meter)) {
			return;
		}
		this.lastPlan = null;
		// A name that client_java would still escape (a base unit with a slash, say) is
		// left to the reference path.
		boolean legacyName = PrometheusNaming.isValidLegacyMetricName(conventionName);
		ShapeOfMeter shape = legacyName ? ShapeOfMeter.of(meter, this.customMeters) : null;
		if (entry == null) {
			entry = new MeterFamilies(conventionName, meter, shape,
					(shape != null) ? null : unwritten(meter, legacyName), help(id));
			this.byConventionName.put(conventionName, entry);
			if (!entry.isReferenceOnly()) {
				claimFamilies(entry);
			}
		}
		else if (!entry.isReferenceOnly() && !entry.accepts(meter, shape, namingConvention())) {
			toReferenceOnly(entry, FallbackReason.METERS_DISAGREE);
		}
		// A meter of no shape leaves its entry reference-only (a new entry has no shape,
		// an existing one does not accept it); the second test only tells the compiler
		// so.
		if (entry.isReferenceOnly() || shape == null) {
			entry.series.put(meter, NO_SERIES);
			return;
		}
		SortKey key = this.labelEncoder.sortKey(id, shape.reservedLabel());
		if (key == null) {
			toReferenceOnly(entry, this.labelEncoder.refusal(id, shape.reservedLabel()));
			entry.series.put(meter, NO_SERIES);
			return;
		}
		if (shape == ShapeOfMeter.CUSTOM) {
			addCustom(entry, meter, key);
			return;
		}
		ExemplarSlots slots = (this.exemplars != null) ? this.exemplars.locate(meter) : null;
		if (slots == ExemplarLocator.UNREADABLE) {
			// Written without its exemplars, the meter would lose them: the reference
			// path writes its name instead.
			toReferenceOnly(entry, FallbackReason.METER_EXEMPLARS_NOT_READABLE);
			entry.series.put(meter, NO_SERIES);
			return;
		}
		byte[] labels = LabelEncoder.encode(key);
		boolean percentiles = hasPercentiles(meter);
		Series[] series = new Series[entry.families.length];
		for (int i = 0; i < series.length; i++) {
			// One series object per family: removal marks each separately. Exemplars go
			// with the first family (a timer's _max family has none).
			series[i] = (slots != null && i == 0) ? new ExemplarSeries(meter, labels, percentiles, slots)
					: new Series(meter, labels, percentiles);
			entry.families[i].add(series[i]);
		}
		entry.series.put(meter, (series.length == 1) ? series[0] : series);
	}

	/**
	 * Add the series of a custom meter: one per measurement, labelled with its statistic,
	 * in the family of its statistic.
	 * @param entry the meter's entry
	 * @param meter the meter
	 * @param key its labels, without the statistic
	 */
	private void addCustom(MeterFamilies entry, Meter meter, SortKey key) {
		List<Series> series = new ArrayList<>();
		for (Measurement measurement : meter.measure()) {
			Statistic statistic = measurement.getStatistic();
			Family family = entry.family(entry.conventionName + CustomStatistics.suffix(statistic));
			byte[] labels = LabelEncoder.encode(key.with(CustomStatistics.LABEL, statistic.toString()));
			CustomSeries each = new CustomSeries(meter, labels, measurement, family);
			family.add(each);
			series.add(each);
		}
		entry.series.put(meter, series.toArray(new Series[0]));
	}

	synchronized void remove(Meter meter) {
		Meter.Id id = meter.getId();
		MeterFamilies entry = this.byConventionName.get(id.getConventionName(namingConvention()));
		if (entry == null) {
			return;
		}
		Object series = entry.series.remove(meter);
		if (series == null) {
			return;
		}
		this.lastPlan = null;
		if (series instanceof Series one) {
			entry.families[0].remove(one);
		}
		else {
			Series[] each = (Series[]) series;
			for (int i = 0; i < each.length; i++) {
				Family family = (each[i] instanceof CustomSeries custom) ? custom.family : entry.families[i];
				family.remove(each[i]);
			}
		}
		if (entry.isEmpty()) {
			this.byConventionName.remove(entry.conventionName);
			if (!entry.isReferenceOnly()) {
				releaseFamilies(entry);
			}
		}
	}

	/**
	 * Take what one scrape needs, with every family's series in order: the last plan
	 * again when no meter was added or removed since, so that a scrape then neither walks
	 * the families nor asks the registry about each of their collectors (a lookup whose
	 * cache misses cost more than rendering a family's series, after a transfer has
	 * passed the body through the caches).
	 * @return the plan of the scrape
	 */
	synchronized ScrapePlan plan() {
		ScrapePlan last = this.lastPlan;
		if (last != null) {
			return last;
		}
		List<Family> direct = new ArrayList<>(this.families.size());
		List<Series[]> series = new ArrayList<>(this.families.size());
		List<Family> duplicated = null;
		// One function for the whole plan, not one per family: the families are many, and
		// most have nothing to sort.
		Function<Series, SortKey> sortKeys = this::sortKey;
		for (Family family : this.families.values()) {
			Series[] published = family.publish(sortKeys);
			if (published == null) {
				duplicated = (duplicated != null) ? duplicated : new ArrayList<>();
				duplicated.add(family);
			}
			else if (published.length > 0) {
				direct.add(family);
				series.add(published);
			}
		}
		if (duplicated != null) {
			for (Family family : duplicated) {
				// Series of the same labels: tags that became the same labels.
				toReferenceOnly(owner(family), FallbackReason.TAG_KEYS_COLLIDE);
			}
			return plan();
		}
		List<String> reference = new ArrayList<>();
		List<FallbackReason> reasons = new ArrayList<>();
		for (MeterFamilies entry : this.byConventionName.values()) {
			FallbackReason reason = entry.referenceReason();
			if (reason != null) {
				reference.add(entry.conventionName);
				reasons.add(reason);
			}
		}
		boolean[] exported = new boolean[direct.size()];
		boolean[] functions = new boolean[direct.size()];
		for (int i = 0; i < exported.length; i++) {
			exported[i] = this.internals.isExported(direct.get(i).collectorName);
			functions[i] = MeterValues.hasFunctions(direct.get(i), series.get(i));
		}
		ScrapePlan plan = new ScrapePlan(direct.toArray(new Family[0]), series.toArray(new Series[0][]), exported,
				functions, reference.toArray(new String[0]), reasons.toArray(new FallbackReason[0]));
		this.lastPlan = plan;
		return plan;
	}

	private SortKey sortKey(Series series) {
		SortKey key = this.labelEncoder.sortKey(series.meter.getId(), null);
		// Accepted when added, so the labels are valid.
		key = (key != null) ? key : new SortKey(new String[0], new String[0]);
		if (series instanceof CustomSeries custom) {
			return key.with(CustomStatistics.LABEL, custom.measurement.getStatistic().toString());
		}
		return key;
	}

	/**
	 * Find the entry that feeds a family. Only when a family turns out to have duplicate
	 * labels: a scan, so that no family has to keep a reference to its entry.
	 * @param family the family
	 * @return the entry that feeds it
	 */
	private MeterFamilies owner(Family family) {
		for (MeterFamilies entry : this.byConventionName.values()) {
			for (Family each : entry.families) {
				if (each == family) {
					return entry;
				}
			}
		}
		throw new IllegalStateException("No entry feeds family " + family.name);
	}

	/**
	 * Return why the direct path does not write the first meter of a name.
	 * @param meter the meter, of no shape
	 * @param legacyName whether its Prometheus name is one client_java leaves alone
	 * @return the reason
	 */
	private FallbackReason unwritten(Meter meter, boolean legacyName) {
		if (!legacyName) {
			return FallbackReason.NAME_ESCAPED;
		}
		if (!this.customMeters && ShapeOfMeter.of(meter, true) == ShapeOfMeter.CUSTOM) {
			return FallbackReason.CUSTOM_METERS_BEFORE_1_16_7;
		}
		return FallbackReason.METER_NOT_WRITTEN_DIRECTLY;
	}

	private void toReferenceOnly(MeterFamilies entry, FallbackReason reason) {
		releaseFamilies(entry);
		entry.referenceOnly(reason);
		for (Map.Entry<Meter, Object> each : entry.series.entrySet()) {
			each.setValue(NO_SERIES);
		}
	}

	private void claimFamilies(MeterFamilies entry) {
		for (Family family : entry.families) {
			if (this.families.containsKey(family.name)) {
				// Another Prometheus name already feeds this family: the registry would
				// merge the two, so this one is left to the reference path, and a scrape
				// that sees both goes to the reference path whole.
				entry.referenceOnly(FallbackReason.FAMILY_NAME_TAKEN);
				return;
			}
		}
		for (Family family : entry.families) {
			this.families.put(family.name, family);
		}
	}

	private void releaseFamilies(MeterFamilies entry) {
		for (Family family : entry.families) {
			this.families.remove(family.name, family);
		}
	}

	private String help(Meter.Id id) {
		String description = id.getDescription();
		return (this.descriptions && description != null) ? description : " ";
	}

	private static boolean hasPercentiles(Meter meter) {
		if (meter instanceof io.micrometer.core.instrument.Timer timer) {
			return timer.takeSnapshot().percentileValues().length > 0;
		}
		if (meter instanceof io.micrometer.core.instrument.DistributionSummary summary) {
			return summary.takeSnapshot().percentileValues().length > 0;
		}
		if (meter instanceof io.micrometer.core.instrument.LongTaskTimer longTask) {
			return longTask.takeSnapshot().percentileValues().length > 0;
		}
		return false;
	}

	/**
	 * What one scrape writes: the direct families in order with their series, and the
	 * Prometheus names to collect through the reference path. The index keeps the last
	 * one for the scrapes after it: a class rather than a record, so that what the index
	 * retains can be measured (JOL cannot read a record's fields on every JDK).
	 */
	static final class ScrapePlan {

		private final Family[] families;

		private final Series[][] series;

		private final boolean[] exported;

		private final boolean[] functions;

		private final String[] referenceNames;

		private final FallbackReason[] referenceReasons;

		/**
		 * Create a plan.
		 * @param families the direct families, sorted by name
		 * @param series each family's series, in order
		 * @param exported whether the registry collects each family's meters (Micrometer
		 * 1.18 keeps no collector for meters whose families client_java refused)
		 * @param functions whether each family has series with functions that a scrape
		 * leaving it out must still call ({@link MeterValues#evaluateFunctions})
		 * @param referenceNames the Prometheus names served by the registry's own
		 * collectors
		 * @param referenceReasons why each of them is
		 */
		ScrapePlan(Family[] families, Series[][] series, boolean[] exported, boolean[] functions,
				String[] referenceNames, FallbackReason[] referenceReasons) {
			this.families = families;
			this.series = series;
			this.exported = exported;
			this.functions = functions;
			this.referenceNames = referenceNames;
			this.referenceReasons = referenceReasons;
		}

		Family[] families() {
			return this.families;
		}

		Series[][] series() {
			return this.series;
		}

		boolean[] exported() {
			return this.exported;
		}

		boolean[] functions() {
			return this.functions;
		}

		String[] referenceNames() {
			return this.referenceNames;
		}

		FallbackReason[] referenceReasons() {
			return this.referenceReasons;
		}

		@Nullable Family family(String name) {
			int low = 0;
			int high = this.families.length - 1;
			while (low <= high) {
				int middle = (low + high) >>> 1;
				int comparison = this.families[middle].name.compareTo(name);
				if (comparison == 0) {
					return this.families[middle];
				}
				if (comparison < 0) {
					low = middle + 1;
				}
				else {
					high = middle - 1;
				}
			}
			return null;
		}

	}

}
