#include "report/xml_text.h"

void adc_put_xml_text(FILE* out, const char* text) {
  for (const unsigned char* p = (const unsigned char*)text; *p; p++) {
    switch (*p) {
      case '&':
        fputs("&amp;", out);
        break;
      case '<':
        fputs("&lt;", out);
        break;
      case '>':
        fputs("&gt;", out);
        break;
      case '"':
        fputs("&quot;", out);
        break;
      case '\'':
        fputs("&apos;", out);
        break;
      default:
        fputc(*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r' ? '?' : *p, out);
    }
  }
}
