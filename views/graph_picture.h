// Draws a laid-out graph into a canvas: boxes with their text, edges as line characters with an
// arrowhead at the head. Highlighted boxes get a double border (visible without colour too); the
// selected box is drawn in the Selected style.
#pragma once

#include <set>
#include <string>

#include "views/canvas.h"
#include "views/graph_layout.h"

namespace retort {

struct PictureMarks {
  std::set<std::string> highlighted;  // DOT ids
  std::string selected;               // a DOT id, or empty
};

// Draws the layout with layout cell `origin` at the canvas's top-left corner.
void draw_layout(Canvas& canvas, const GraphLayout& layout, CellPoint origin,
                 const PictureMarks& marks, const Glyphs& glyphs);

}  // namespace retort
