/* Text inside XML: the reports' one escaping function. */
#ifndef ADC_XML_TEXT_H
#define ADC_XML_TEXT_H

#include <stdio.h>

/* Writes `text` as XML character data or an attribute value: &, <, >, "
 * and ' as entities, and the control characters XML 1.0 cannot carry at
 * all (every one below 0x20 but tab, line feed and carriage return) as
 * '?'.  Case messages are UTF-8 already (wire/wire.h). */
void adc_put_xml_text(FILE* out, const char* text);

#endif /* ADC_XML_TEXT_H */
