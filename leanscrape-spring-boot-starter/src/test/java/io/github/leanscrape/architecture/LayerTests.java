package io.github.leanscrape.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import com.tngtech.archunit.library.Architectures;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.Test;

/**
 * The direction of the starter's imports, checked on its compiled classes: {@code web} →
 * {@code endpoint} → {@code serve} → {@code reuse} → {@code compression} →
 * {@code exposition}, with {@code metrics} beside {@code web} over {@code serve},
 * {@code autoconfigure} on top and {@code recording} apart, its two stacks on its shared
 * core and not on each other. Each package's {@code package-info.java} says the same in
 * words.
 */
class LayerTests {

	private static final JavaClasses STARTER = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("io.github.leanscrape");

	@Test
	void layersImportDownwardOnly() {
		Architectures.layeredArchitecture()
			.consideringOnlyDependenciesInLayers()
			.layer("autoconfigure")
			.definedBy("io.github.leanscrape.autoconfigure..")
			.layer("metrics")
			.definedBy("io.github.leanscrape.metrics..")
			.layer("web")
			.definedBy("io.github.leanscrape.web..")
			.layer("endpoint")
			.definedBy("io.github.leanscrape.endpoint..")
			.layer("serve")
			.definedBy("io.github.leanscrape.serve..")
			.layer("reuse")
			.definedBy("io.github.leanscrape.reuse..")
			.layer("compression")
			.definedBy("io.github.leanscrape.compression..")
			.layer("exposition")
			.definedBy("io.github.leanscrape.exposition..")
			.layer("recording")
			.definedBy("io.github.leanscrape.recording..")
			.whereLayer("autoconfigure")
			.mayNotBeAccessedByAnyLayer()
			.whereLayer("metrics")
			.mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("web")
			.mayOnlyBeAccessedByLayers("autoconfigure")
			.whereLayer("endpoint")
			.mayOnlyBeAccessedByLayers("autoconfigure", "web")
			.whereLayer("serve")
			.mayOnlyBeAccessedByLayers("autoconfigure", "metrics", "web", "endpoint")
			.whereLayer("reuse")
			.mayOnlyBeAccessedByLayers("serve")
			.whereLayer("compression")
			.mayOnlyBeAccessedByLayers("autoconfigure", "metrics", "serve", "reuse")
			.whereLayer("exposition")
			.mayOnlyBeAccessedByLayers("autoconfigure", "metrics", "web", "endpoint", "serve", "reuse", "compression")
			.whereLayer("recording")
			.mayOnlyBeAccessedByLayers("autoconfigure")
			.check(STARTER);
	}

	@Test
	void recordingStandsApart() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.leanscrape.recording..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.leanscrape.metrics..", "io.github.leanscrape.web..",
					"io.github.leanscrape.endpoint..", "io.github.leanscrape.serve..", "io.github.leanscrape.reuse..",
					"io.github.leanscrape.compression..", "io.github.leanscrape.exposition..",
					"io.github.leanscrape.autoconfigure..")
			.check(STARTER);
	}

	@Test
	void recordingsStacksShareItsCoreAndNotEachOther() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.leanscrape.recording")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.leanscrape.recording.servlet..", "io.github.leanscrape.recording.reactive..")
			.check(STARTER);
		SlicesRuleDefinition.slices()
			.matching("io.github.leanscrape.recording.(*)..")
			.should()
			.notDependOnEachOther()
			.check(STARTER);
	}

	@Test
	void compressionKnowsNothingOfTheScrapeAroundIt() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.leanscrape.compression..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.leanscrape.metrics..", "io.github.leanscrape.serve..",
					"io.github.leanscrape.reuse..", "io.github.leanscrape.web..", "io.github.leanscrape.endpoint..",
					"io.github.leanscrape.exposition.direct..", "io.github.leanscrape.exposition.reference..")
			.check(STARTER);
	}

	@Test
	void serveRecordsThroughItsOwnInterfaceNotMicrometer() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.leanscrape.serve..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.micrometer..")
			.check(STARTER);
	}

	@Test
	void formatWritersAreBelowTheExpositionTheyWriteInto() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.leanscrape.exposition")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.github.leanscrape.exposition.direct..",
					"io.github.leanscrape.exposition.reference..")
			.check(STARTER);
	}

	@Test
	void referencePathKnowsNothingOfTheDirectPath() {
		ArchRuleDefinition.noClasses()
			.that()
			.resideInAPackage("io.github.leanscrape.exposition.reference..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.github.leanscrape.exposition.direct..")
			.check(STARTER);
	}

	@Test
	void stackAdaptersDoNotKnowEachOther() {
		SlicesRuleDefinition.slices()
			.matching("io.github.leanscrape.web.(*)..")
			.should()
			.notDependOnEachOther()
			.check(STARTER);
	}

}
