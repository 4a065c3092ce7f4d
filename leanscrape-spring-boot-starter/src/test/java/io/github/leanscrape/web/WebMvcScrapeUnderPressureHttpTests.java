package io.github.leanscrape.web;

import io.github.leanscrape.support.ScrapeTestApplication;
import io.github.leanscrape.support.StressTests;
import org.junit.jupiter.api.Tag;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * Scrapes under pressure on Spring MVC (Tomcat).
 */
@Tag(StressTests.TAG)
@SpringBootTest(classes = ScrapeTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=servlet", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=prometheus", "rich.bulk-series=20000",
				"rich.own-metrics=true", "leanscrape.max-concurrent-renders=1" })
class WebMvcScrapeUnderPressureHttpTests extends AbstractScrapeUnderPressureHttpTests {

}
