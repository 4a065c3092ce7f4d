package io.github.leanscrape.web;

import io.github.leanscrape.support.ScrapeTestApplication;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * Scrapes under pressure on Spring WebFlux (Reactor Netty) with virtual threads.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
@SpringBootTest(classes = ScrapeTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=prometheus,health", "rich.bulk-series=20000",
				"rich.own-metrics=true", "leanscrape.max-concurrent-renders=1", "spring.threads.virtual.enabled=true" })
class WebFluxScrapeUnderPressureOnVirtualThreadsHttpTests extends AbstractScrapeUnderPressureOnVirtualThreadsHttpTests {

}
