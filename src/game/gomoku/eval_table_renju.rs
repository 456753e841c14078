//! The evaluation's fitted tables, written by `arbor tune --game gomoku`.
//! Fitted to 5612 teacher games (235609 positions) of rapfi-renju-2026-11-29.txt, gomokunn-renju;
//! scale 948 (freestyle's, `EVAL_SCALE`).
//! (`arbor tune --game gomoku --rule renju --teacher rapfi-renju-2026-11-29.txt gomokunn-renju`:
//! 60 games of Rapfi's renju self-play, made here, and 5,568 Gomocup renju-league games of
//! MahiruInami/GomokuNN's database, MIT; 15 of those left out, see docs/gomoku.md#renju.)

use super::pattern::PointClass;

/// By `PointClass`, Black's then White's: a point's value to the side to move,
/// and to the other side.
#[rustfmt::skip]
pub const POINT_VALUES: [[i16; 2]; 2 * PointClass::COUNT] = [
    [0, 0], // [Dead, Dead, Dead, Dead]
    [28, 30], // [One, Dead, Dead, Dead]
    [-1, 1], // [One, One, Dead, Dead]
    [8, 10], // [One, One, One, Dead]
    [-1, -1], // [One, One, One, One]
    [-8, 7], // [Two, Dead, Dead, Dead]
    [2, 4], // [Two, One, Dead, Dead]
    [3, 6], // [Two, One, One, Dead]
    [3, 3], // [Two, One, One, One]
    [5, 5], // [Two, Two, Dead, Dead]
    [-32, -25], // [Two, Two, One, Dead]
    [-12, -11], // [Two, Two, One, One]
    [-55, -45], // [Two, Two, Two, Dead]
    [-32, -28], // [Two, Two, Two, One]
    [-26, -37], // [Two, Two, Two, Two]
    [25, 30], // [OpenTwo, Dead, Dead, Dead]
    [-16, -11], // [OpenTwo, One, Dead, Dead]
    [8, 8], // [OpenTwo, One, One, Dead]
    [0, 1], // [OpenTwo, One, One, One]
    [-24, -21], // [OpenTwo, Two, Dead, Dead]
    [-4, -4], // [OpenTwo, Two, One, Dead]
    [13, 11], // [OpenTwo, Two, One, One]
    [24, 16], // [OpenTwo, Two, Two, Dead]
    [14, 18], // [OpenTwo, Two, Two, One]
    [49, 31], // [OpenTwo, Two, Two, Two]
    [-27, -25], // [OpenTwo, OpenTwo, Dead, Dead]
    [16, 6], // [OpenTwo, OpenTwo, One, Dead]
    [24, 22], // [OpenTwo, OpenTwo, One, One]
    [33, 34], // [OpenTwo, OpenTwo, Two, Dead]
    [16, 17], // [OpenTwo, OpenTwo, Two, One]
    [54, 50], // [OpenTwo, OpenTwo, Two, Two]
    [86, 77], // [OpenTwo, OpenTwo, OpenTwo, Dead]
    [40, 35], // [OpenTwo, OpenTwo, OpenTwo, One]
    [49, 49], // [OpenTwo, OpenTwo, OpenTwo, Two]
    [33, 47], // [OpenTwo, OpenTwo, OpenTwo, OpenTwo]
    [-12, 5], // [Three, Dead, Dead, Dead]
    [-5, -2], // [Three, One, Dead, Dead]
    [-3, 4], // [Three, One, One, Dead]
    [18, 16], // [Three, One, One, One]
    [9, 6], // [Three, Two, Dead, Dead]
    [0, 4], // [Three, Two, One, Dead]
    [6, 7], // [Three, Two, One, One]
    [14, 16], // [Three, Two, Two, Dead]
    [-1, 5], // [Three, Two, Two, One]
    [2, 15], // [Three, Two, Two, Two]
    [13, -1], // [Three, OpenTwo, Dead, Dead]
    [56, 43], // [Three, OpenTwo, One, Dead]
    [80, 72], // [Three, OpenTwo, One, One]
    [105, 95], // [Three, OpenTwo, Two, Dead]
    [72, 68], // [Three, OpenTwo, Two, One]
    [109, 116], // [Three, OpenTwo, Two, Two]
    [128, 117], // [Three, OpenTwo, OpenTwo, Dead]
    [94, 92], // [Three, OpenTwo, OpenTwo, One]
    [80, 90], // [Three, OpenTwo, OpenTwo, Two]
    [28, 32], // [Three, OpenTwo, OpenTwo, OpenTwo]
    [33, 17], // [Three, Three, Dead, Dead]
    [25, 12], // [Three, Three, One, Dead]
    [113, 99], // [Three, Three, One, One]
    [63, 65], // [Three, Three, Two, Dead]
    [78, 72], // [Three, Three, Two, One]
    [32, 29], // [Three, Three, Two, Two]
    [123, 98], // [Three, Three, OpenTwo, Dead]
    [115, 127], // [Three, Three, OpenTwo, One]
    [103, 85], // [Three, Three, OpenTwo, Two]
    [106, 77], // [Three, Three, OpenTwo, OpenTwo]
    [44, 48], // [Three, Three, Three, Dead]
    [53, 67], // [Three, Three, Three, One]
    [22, 29], // [Three, Three, Three, Two]
    [40, 51], // [Three, Three, Three, OpenTwo]
    [40, 45], // [Three, Three, Three, Three]
    [-13, 11], // [OpenThree, Dead, Dead, Dead]
    [-8, 3], // [OpenThree, One, Dead, Dead]
    [43, 45], // [OpenThree, One, One, Dead]
    [26, 33], // [OpenThree, One, One, One]
    [14, 9], // [OpenThree, Two, Dead, Dead]
    [63, 58], // [OpenThree, Two, One, Dead]
    [69, 69], // [OpenThree, Two, One, One]
    [70, 79], // [OpenThree, Two, Two, Dead]
    [137, 123], // [OpenThree, Two, Two, One]
    [67, 67], // [OpenThree, Two, Two, Two]
    [54, 37], // [OpenThree, OpenTwo, Dead, Dead]
    [92, 61], // [OpenThree, OpenTwo, One, Dead]
    [72, 74], // [OpenThree, OpenTwo, One, One]
    [122, 85], // [OpenThree, OpenTwo, Two, Dead]
    [77, 70], // [OpenThree, OpenTwo, Two, One]
    [116, 106], // [OpenThree, OpenTwo, Two, Two]
    [161, 108], // [OpenThree, OpenTwo, OpenTwo, Dead]
    [114, 101], // [OpenThree, OpenTwo, OpenTwo, One]
    [124, 29], // [OpenThree, OpenTwo, OpenTwo, Two]
    [160, 71], // [OpenThree, OpenTwo, OpenTwo, OpenTwo]
    [92, 62], // [OpenThree, Three, Dead, Dead]
    [166, 144], // [OpenThree, Three, One, Dead]
    [180, 153], // [OpenThree, Three, One, One]
    [184, 169], // [OpenThree, Three, Two, Dead]
    [184, 187], // [OpenThree, Three, Two, One]
    [166, 173], // [OpenThree, Three, Two, Two]
    [259, 197], // [OpenThree, Three, OpenTwo, Dead]
    [169, 135], // [OpenThree, Three, OpenTwo, One]
    [174, 166], // [OpenThree, Three, OpenTwo, Two]
    [133, 98], // [OpenThree, Three, OpenTwo, OpenTwo]
    [172, 134], // [OpenThree, Three, Three, Dead]
    [92, 142], // [OpenThree, Three, Three, One]
    [88, 70], // [OpenThree, Three, Three, Two]
    [131, 119], // [OpenThree, Three, Three, OpenTwo]
    [82, 89], // [OpenThree, Three, Three, Three]
    [-7, -27], // [OpenThree, OpenThree, Dead, Dead]
    [-38, 90], // [OpenThree, OpenThree, One, Dead]
    [-166, -16], // [OpenThree, OpenThree, One, One]
    [156, 164], // [OpenThree, OpenThree, Two, Dead]
    [-83, 19], // [OpenThree, OpenThree, Two, One]
    [43, 104], // [OpenThree, OpenThree, Two, Two]
    [195, 195], // [OpenThree, OpenThree, OpenTwo, Dead]
    [-88, -8], // [OpenThree, OpenThree, OpenTwo, One]
    [45, 57], // [OpenThree, OpenThree, OpenTwo, Two]
    [271, 245], // [OpenThree, OpenThree, OpenTwo, OpenTwo]
    [88, 75], // [OpenThree, OpenThree, Three, Dead]
    [-192, -26], // [OpenThree, OpenThree, Three, One]
    [154, 214], // [OpenThree, OpenThree, Three, Two]
    [147, 151], // [OpenThree, OpenThree, Three, OpenTwo]
    [171, 223], // [OpenThree, OpenThree, Three, Three]
    [138, 125], // [OpenThree, OpenThree, OpenThree, Dead]
    [258, 313], // [OpenThree, OpenThree, OpenThree, One]
    [278, 199], // [OpenThree, OpenThree, OpenThree, Two]
    [190, 122], // [OpenThree, OpenThree, OpenThree, OpenTwo]
    [269, 265], // [OpenThree, OpenThree, OpenThree, Three]
    [300, 300], // [OpenThree, OpenThree, OpenThree, OpenThree]
    [-47, 3], // [Four, Dead, Dead, Dead]
    [-28, -14], // [Four, One, Dead, Dead]
    [51, 66], // [Four, One, One, Dead]
    [106, 120], // [Four, One, One, One]
    [51, 49], // [Four, Two, Dead, Dead]
    [68, 89], // [Four, Two, One, Dead]
    [138, 145], // [Four, Two, One, One]
    [137, 158], // [Four, Two, Two, Dead]
    [142, 153], // [Four, Two, Two, One]
    [172, 194], // [Four, Two, Two, Two]
    [177, 146], // [Four, OpenTwo, Dead, Dead]
    [198, 186], // [Four, OpenTwo, One, Dead]
    [267, 247], // [Four, OpenTwo, One, One]
    [307, 261], // [Four, OpenTwo, Two, Dead]
    [304, 308], // [Four, OpenTwo, Two, One]
    [195, 228], // [Four, OpenTwo, Two, Two]
    [181, 220], // [Four, OpenTwo, OpenTwo, Dead]
    [313, 290], // [Four, OpenTwo, OpenTwo, One]
    [235, 231], // [Four, OpenTwo, OpenTwo, Two]
    [175, 170], // [Four, OpenTwo, OpenTwo, OpenTwo]
    [90, 62], // [Four, Three, Dead, Dead]
    [142, 138], // [Four, Three, One, Dead]
    [257, 267], // [Four, Three, One, One]
    [173, 181], // [Four, Three, Two, Dead]
    [247, 255], // [Four, Three, Two, One]
    [131, 174], // [Four, Three, Two, Two]
    [290, 240], // [Four, Three, OpenTwo, Dead]
    [352, 335], // [Four, Three, OpenTwo, One]
    [196, 195], // [Four, Three, OpenTwo, Two]
    [167, 204], // [Four, Three, OpenTwo, OpenTwo]
    [141, 144], // [Four, Three, Three, Dead]
    [156, 171], // [Four, Three, Three, One]
    [82, 86], // [Four, Three, Three, Two]
    [110, 74], // [Four, Three, Three, OpenTwo]
    [91, 85], // [Four, Three, Three, Three]
    [-1422, 331], // [Four, OpenThree, Dead, Dead]
    [-1356, 241], // [Four, OpenThree, One, Dead]
    [-1396, 256], // [Four, OpenThree, One, One]
    [-1136, 356], // [Four, OpenThree, Two, Dead]
    [-998, 307], // [Four, OpenThree, Two, One]
    [-616, 373], // [Four, OpenThree, Two, Two]
    [-701, 414], // [Four, OpenThree, OpenTwo, Dead]
    [-1205, 392], // [Four, OpenThree, OpenTwo, One]
    [-596, 418], // [Four, OpenThree, OpenTwo, Two]
    [64, 590], // [Four, OpenThree, OpenTwo, OpenTwo]
    [-663, 521], // [Four, OpenThree, Three, Dead]
    [-665, 460], // [Four, OpenThree, Three, One]
    [57, 435], // [Four, OpenThree, Three, Two]
    [414, 386], // [Four, OpenThree, Three, OpenTwo]
    [421, 640], // [Four, OpenThree, Three, Three]
    [-1451, 527], // [Four, OpenThree, OpenThree, Dead]
    [-814, 877], // [Four, OpenThree, OpenThree, One]
    [-656, 364], // [Four, OpenThree, OpenThree, Two]
    [463, 462], // [Four, OpenThree, OpenThree, OpenTwo]
    [509, 456], // [Four, OpenThree, OpenThree, Three]
    [495, 495], // [Four, OpenThree, OpenThree, OpenThree]
    [-1759, 247], // [Four, Four, Dead, Dead]
    [-1720, 139], // [Four, Four, One, Dead]
    [-1675, 400], // [Four, Four, One, One]
    [-1701, 97], // [Four, Four, Two, Dead]
    [-1699, 309], // [Four, Four, Two, One]
    [-624, 768], // [Four, Four, Two, Two]
    [-1382, 351], // [Four, Four, OpenTwo, Dead]
    [-1462, 330], // [Four, Four, OpenTwo, One]
    [-601, 624], // [Four, Four, OpenTwo, Two]
    [272, 426], // [Four, Four, OpenTwo, OpenTwo]
    [-1643, 80], // [Four, Four, Three, Dead]
    [-200, 371], // [Four, Four, Three, One]
    [-588, 777], // [Four, Four, Three, Two]
    [94, 551], // [Four, Four, Three, OpenTwo]
    [340, 314], // [Four, Four, Three, Three]
    [-544, 443], // [Four, Four, OpenThree, Dead]
    [23, 844], // [Four, Four, OpenThree, One]
    [168, 506], // [Four, Four, OpenThree, Two]
    [201, 599], // [Four, Four, OpenThree, OpenTwo]
    [381, 375], // [Four, Four, OpenThree, Three]
    [410, 410], // [Four, Four, OpenThree, OpenThree]
    [190, 593], // [Four, Four, Four, Dead]
    [264, 581], // [Four, Four, Four, One]
    [231, 659], // [Four, Four, Four, Two]
    [392, 471], // [Four, Four, Four, OpenTwo]
    [390, 390], // [Four, Four, Four, Three]
    [425, 425], // [Four, Four, Four, OpenThree]
    [440, 440], // [Four, Four, Four, Four]
    [-1927, 174], // [OpenFour, Dead, Dead, Dead]
    [-1468, 211], // [OpenFour, One, Dead, Dead]
    [-454, 272], // [OpenFour, One, One, Dead]
    [-667, 234], // [OpenFour, One, One, One]
    [-1161, 220], // [OpenFour, Two, Dead, Dead]
    [-1110, 300], // [OpenFour, Two, One, Dead]
    [-618, 285], // [OpenFour, Two, One, One]
    [-768, 233], // [OpenFour, Two, Two, Dead]
    [-199, 346], // [OpenFour, Two, Two, One]
    [512, 330], // [OpenFour, Two, Two, Two]
    [-34, 295], // [OpenFour, OpenTwo, Dead, Dead]
    [513, 282], // [OpenFour, OpenTwo, One, Dead]
    [-655, 270], // [OpenFour, OpenTwo, One, One]
    [168, 339], // [OpenFour, OpenTwo, Two, Dead]
    [-513, 293], // [OpenFour, OpenTwo, Two, One]
    [520, 378], // [OpenFour, OpenTwo, Two, Two]
    [524, 386], // [OpenFour, OpenTwo, OpenTwo, Dead]
    [525, 325], // [OpenFour, OpenTwo, OpenTwo, One]
    [528, 445], // [OpenFour, OpenTwo, OpenTwo, Two]
    [536, 396], // [OpenFour, OpenTwo, OpenTwo, OpenTwo]
    [-463, 308], // [OpenFour, Three, Dead, Dead]
    [-551, 402], // [OpenFour, Three, One, Dead]
    [31, 390], // [OpenFour, Three, One, One]
    [-262, 414], // [OpenFour, Three, Two, Dead]
    [515, 331], // [OpenFour, Three, Two, One]
    [518, 467], // [OpenFour, Three, Two, Two]
    [522, 417], // [OpenFour, Three, OpenTwo, Dead]
    [523, 296], // [OpenFour, Three, OpenTwo, One]
    [526, 190], // [OpenFour, Three, OpenTwo, Two]
    [535, 596], // [OpenFour, Three, OpenTwo, OpenTwo]
    [-346, 575], // [OpenFour, Three, Three, Dead]
    [521, 499], // [OpenFour, Three, Three, One]
    [524, 565], // [OpenFour, Three, Three, Two]
    [532, 458], // [OpenFour, Three, Three, OpenTwo]
    [530, 574], // [OpenFour, Three, Three, Three]
    [545, 349], // [OpenFour, OpenThree, Dead, Dead]
    [548, 161], // [OpenFour, OpenThree, One, Dead]
    [548, 50], // [OpenFour, OpenThree, One, One]
    [549, 362], // [OpenFour, OpenThree, Two, Dead]
    [-150, 259], // [OpenFour, OpenThree, Two, One]
    [553, 497], // [OpenFour, OpenThree, Two, Two]
    [557, 442], // [OpenFour, OpenThree, OpenTwo, Dead]
    [375, 132], // [OpenFour, OpenThree, OpenTwo, One]
    [561, 403], // [OpenFour, OpenThree, OpenTwo, Two]
    [569, 593], // [OpenFour, OpenThree, OpenTwo, OpenTwo]
    [555, 436], // [OpenFour, OpenThree, Three, Dead]
    [556, 241], // [OpenFour, OpenThree, Three, One]
    [559, 671], // [OpenFour, OpenThree, Three, Two]
    [571, 106], // [OpenFour, OpenThree, Three, OpenTwo]
    [565, 565], // [OpenFour, OpenThree, Three, Three]
    [252, 488], // [OpenFour, OpenThree, OpenThree, Dead]
    [591, 591], // [OpenFour, OpenThree, OpenThree, One]
    [55, 466], // [OpenFour, OpenThree, OpenThree, Two]
    [602, 602], // [OpenFour, OpenThree, OpenThree, OpenTwo]
    [600, 600], // [OpenFour, OpenThree, OpenThree, Three]
    [635, 635], // [OpenFour, OpenThree, OpenThree, OpenThree]
    [-1051, 119], // [OpenFour, Four, Dead, Dead]
    [-956, -309], // [OpenFour, Four, One, Dead]
    [-1234, 164], // [OpenFour, Four, One, One]
    [-1208, 682], // [OpenFour, Four, Two, Dead]
    [-1837, 326], // [OpenFour, Four, Two, One]
    [-423, 951], // [OpenFour, Four, Two, Two]
    [-392, 556], // [OpenFour, Four, OpenTwo, Dead]
    [-381, 1141], // [OpenFour, Four, OpenTwo, One]
    [-246, 1272], // [OpenFour, Four, OpenTwo, Two]
    [584, 515], // [OpenFour, Four, OpenTwo, OpenTwo]
    [-101, 745], // [OpenFour, Four, Three, Dead]
    [-147, 369], // [OpenFour, Four, Three, One]
    [676, 928], // [OpenFour, Four, Three, Two]
    [582, 582], // [OpenFour, Four, Three, OpenTwo]
    [580, 580], // [OpenFour, Four, Three, Three]
    [-610, 856], // [OpenFour, Four, OpenThree, Dead]
    [606, 628], // [OpenFour, Four, OpenThree, One]
    [609, 536], // [OpenFour, Four, OpenThree, Two]
    [617, 617], // [OpenFour, Four, OpenThree, OpenTwo]
    [615, 615], // [OpenFour, Four, OpenThree, Three]
    [650, 650], // [OpenFour, Four, OpenThree, OpenThree]
    [-771, 966], // [OpenFour, Four, Four, Dead]
    [80, 977], // [OpenFour, Four, Four, One]
    [624, 734], // [OpenFour, Four, Four, Two]
    [632, 632], // [OpenFour, Four, Four, OpenTwo]
    [630, 630], // [OpenFour, Four, Four, Three]
    [665, 665], // [OpenFour, Four, Four, OpenThree]
    [680, 680], // [OpenFour, Four, Four, Four]
    [-1614, -334], // [OpenFour, OpenFour, Dead, Dead]
    [801, 247], // [OpenFour, OpenFour, One, Dead]
    [802, 608], // [OpenFour, OpenFour, One, One]
    [804, 560], // [OpenFour, OpenFour, Two, Dead]
    [805, 614], // [OpenFour, OpenFour, Two, One]
    [808, 91], // [OpenFour, OpenFour, Two, Two]
    [812, 497], // [OpenFour, OpenFour, OpenTwo, Dead]
    [813, 737], // [OpenFour, OpenFour, OpenTwo, One]
    [816, 816], // [OpenFour, OpenFour, OpenTwo, Two]
    [391, 1352], // [OpenFour, OpenFour, OpenTwo, OpenTwo]
    [810, 810], // [OpenFour, OpenFour, Three, Dead]
    [811, 811], // [OpenFour, OpenFour, Three, One]
    [814, 814], // [OpenFour, OpenFour, Three, Two]
    [822, 822], // [OpenFour, OpenFour, Three, OpenTwo]
    [820, 820], // [OpenFour, OpenFour, Three, Three]
    [849, 293], // [OpenFour, OpenFour, OpenThree, Dead]
    [846, 846], // [OpenFour, OpenFour, OpenThree, One]
    [849, 849], // [OpenFour, OpenFour, OpenThree, Two]
    [606, 1224], // [OpenFour, OpenFour, OpenThree, OpenTwo]
    [855, 855], // [OpenFour, OpenFour, OpenThree, Three]
    [890, 890], // [OpenFour, OpenFour, OpenThree, OpenThree]
    [860, 860], // [OpenFour, OpenFour, Four, Dead]
    [861, 861], // [OpenFour, OpenFour, Four, One]
    [864, 864], // [OpenFour, OpenFour, Four, Two]
    [872, 872], // [OpenFour, OpenFour, Four, OpenTwo]
    [870, 870], // [OpenFour, OpenFour, Four, Three]
    [905, 905], // [OpenFour, OpenFour, Four, OpenThree]
    [920, 920], // [OpenFour, OpenFour, Four, Four]
    [1100, 1100], // [OpenFour, OpenFour, OpenFour, Dead]
    [1101, 1101], // [OpenFour, OpenFour, OpenFour, One]
    [1104, 1104], // [OpenFour, OpenFour, OpenFour, Two]
    [1112, 1112], // [OpenFour, OpenFour, OpenFour, OpenTwo]
    [1110, 1110], // [OpenFour, OpenFour, OpenFour, Three]
    [1145, 1145], // [OpenFour, OpenFour, OpenFour, OpenThree]
    [1160, 1160], // [OpenFour, OpenFour, OpenFour, Four]
    [1400, 1400], // [OpenFour, OpenFour, OpenFour, OpenFour]
    [1000, 1000], // [Five, Dead, Dead, Dead]
    [1001, 1001], // [Five, One, Dead, Dead]
    [1002, 1002], // [Five, One, One, Dead]
    [1003, 1003], // [Five, One, One, One]
    [1004, 1004], // [Five, Two, Dead, Dead]
    [1005, 1005], // [Five, Two, One, Dead]
    [1006, 1006], // [Five, Two, One, One]
    [1008, 1008], // [Five, Two, Two, Dead]
    [1009, 1009], // [Five, Two, Two, One]
    [1012, 1012], // [Five, Two, Two, Two]
    [1012, 1012], // [Five, OpenTwo, Dead, Dead]
    [1013, 1013], // [Five, OpenTwo, One, Dead]
    [1014, 1014], // [Five, OpenTwo, One, One]
    [1016, 1016], // [Five, OpenTwo, Two, Dead]
    [1017, 1017], // [Five, OpenTwo, Two, One]
    [1020, 1020], // [Five, OpenTwo, Two, Two]
    [1024, 1024], // [Five, OpenTwo, OpenTwo, Dead]
    [1025, 1025], // [Five, OpenTwo, OpenTwo, One]
    [1028, 1028], // [Five, OpenTwo, OpenTwo, Two]
    [1036, 1036], // [Five, OpenTwo, OpenTwo, OpenTwo]
    [1010, 1010], // [Five, Three, Dead, Dead]
    [1011, 1011], // [Five, Three, One, Dead]
    [1012, 1012], // [Five, Three, One, One]
    [1014, 1014], // [Five, Three, Two, Dead]
    [1015, 1015], // [Five, Three, Two, One]
    [1018, 1018], // [Five, Three, Two, Two]
    [1022, 1022], // [Five, Three, OpenTwo, Dead]
    [1023, 1023], // [Five, Three, OpenTwo, One]
    [1026, 1026], // [Five, Three, OpenTwo, Two]
    [1034, 1034], // [Five, Three, OpenTwo, OpenTwo]
    [1020, 1020], // [Five, Three, Three, Dead]
    [1021, 1021], // [Five, Three, Three, One]
    [1024, 1024], // [Five, Three, Three, Two]
    [1032, 1032], // [Five, Three, Three, OpenTwo]
    [1030, 1030], // [Five, Three, Three, Three]
    [1045, 1045], // [Five, OpenThree, Dead, Dead]
    [1046, 1046], // [Five, OpenThree, One, Dead]
    [1047, 1047], // [Five, OpenThree, One, One]
    [1049, 1049], // [Five, OpenThree, Two, Dead]
    [1050, 1050], // [Five, OpenThree, Two, One]
    [1053, 1053], // [Five, OpenThree, Two, Two]
    [1057, 1057], // [Five, OpenThree, OpenTwo, Dead]
    [1058, 1058], // [Five, OpenThree, OpenTwo, One]
    [1061, 1061], // [Five, OpenThree, OpenTwo, Two]
    [1069, 1069], // [Five, OpenThree, OpenTwo, OpenTwo]
    [1055, 1055], // [Five, OpenThree, Three, Dead]
    [1056, 1056], // [Five, OpenThree, Three, One]
    [1059, 1059], // [Five, OpenThree, Three, Two]
    [1067, 1067], // [Five, OpenThree, Three, OpenTwo]
    [1065, 1065], // [Five, OpenThree, Three, Three]
    [1090, 1090], // [Five, OpenThree, OpenThree, Dead]
    [1091, 1091], // [Five, OpenThree, OpenThree, One]
    [1094, 1094], // [Five, OpenThree, OpenThree, Two]
    [1102, 1102], // [Five, OpenThree, OpenThree, OpenTwo]
    [1100, 1100], // [Five, OpenThree, OpenThree, Three]
    [1135, 1135], // [Five, OpenThree, OpenThree, OpenThree]
    [1060, 1060], // [Five, Four, Dead, Dead]
    [1061, 1061], // [Five, Four, One, Dead]
    [1062, 1062], // [Five, Four, One, One]
    [1064, 1064], // [Five, Four, Two, Dead]
    [1065, 1065], // [Five, Four, Two, One]
    [1068, 1068], // [Five, Four, Two, Two]
    [1072, 1072], // [Five, Four, OpenTwo, Dead]
    [1073, 1073], // [Five, Four, OpenTwo, One]
    [1076, 1076], // [Five, Four, OpenTwo, Two]
    [1084, 1084], // [Five, Four, OpenTwo, OpenTwo]
    [1070, 1070], // [Five, Four, Three, Dead]
    [1071, 1071], // [Five, Four, Three, One]
    [1074, 1074], // [Five, Four, Three, Two]
    [1082, 1082], // [Five, Four, Three, OpenTwo]
    [1080, 1080], // [Five, Four, Three, Three]
    [1105, 1105], // [Five, Four, OpenThree, Dead]
    [1106, 1106], // [Five, Four, OpenThree, One]
    [1109, 1109], // [Five, Four, OpenThree, Two]
    [1117, 1117], // [Five, Four, OpenThree, OpenTwo]
    [1115, 1115], // [Five, Four, OpenThree, Three]
    [1150, 1150], // [Five, Four, OpenThree, OpenThree]
    [1120, 1120], // [Five, Four, Four, Dead]
    [1121, 1121], // [Five, Four, Four, One]
    [1124, 1124], // [Five, Four, Four, Two]
    [1132, 1132], // [Five, Four, Four, OpenTwo]
    [1130, 1130], // [Five, Four, Four, Three]
    [1165, 1165], // [Five, Four, Four, OpenThree]
    [1180, 1180], // [Five, Four, Four, Four]
    [1300, 1300], // [Five, OpenFour, Dead, Dead]
    [1301, 1301], // [Five, OpenFour, One, Dead]
    [1302, 1302], // [Five, OpenFour, One, One]
    [1304, 1304], // [Five, OpenFour, Two, Dead]
    [1305, 1305], // [Five, OpenFour, Two, One]
    [1308, 1308], // [Five, OpenFour, Two, Two]
    [1312, 1312], // [Five, OpenFour, OpenTwo, Dead]
    [1313, 1313], // [Five, OpenFour, OpenTwo, One]
    [1316, 1316], // [Five, OpenFour, OpenTwo, Two]
    [1324, 1324], // [Five, OpenFour, OpenTwo, OpenTwo]
    [1310, 1310], // [Five, OpenFour, Three, Dead]
    [1311, 1311], // [Five, OpenFour, Three, One]
    [1314, 1314], // [Five, OpenFour, Three, Two]
    [1322, 1322], // [Five, OpenFour, Three, OpenTwo]
    [1320, 1320], // [Five, OpenFour, Three, Three]
    [1345, 1345], // [Five, OpenFour, OpenThree, Dead]
    [1346, 1346], // [Five, OpenFour, OpenThree, One]
    [1349, 1349], // [Five, OpenFour, OpenThree, Two]
    [1357, 1357], // [Five, OpenFour, OpenThree, OpenTwo]
    [1355, 1355], // [Five, OpenFour, OpenThree, Three]
    [1390, 1390], // [Five, OpenFour, OpenThree, OpenThree]
    [1360, 1360], // [Five, OpenFour, Four, Dead]
    [1361, 1361], // [Five, OpenFour, Four, One]
    [1364, 1364], // [Five, OpenFour, Four, Two]
    [1372, 1372], // [Five, OpenFour, Four, OpenTwo]
    [1370, 1370], // [Five, OpenFour, Four, Three]
    [1405, 1405], // [Five, OpenFour, Four, OpenThree]
    [1420, 1420], // [Five, OpenFour, Four, Four]
    [1600, 1600], // [Five, OpenFour, OpenFour, Dead]
    [1601, 1601], // [Five, OpenFour, OpenFour, One]
    [1604, 1604], // [Five, OpenFour, OpenFour, Two]
    [1612, 1612], // [Five, OpenFour, OpenFour, OpenTwo]
    [1610, 1610], // [Five, OpenFour, OpenFour, Three]
    [1645, 1645], // [Five, OpenFour, OpenFour, OpenThree]
    [1660, 1660], // [Five, OpenFour, OpenFour, Four]
    [1900, 1900], // [Five, OpenFour, OpenFour, OpenFour]
    [2000, 2000], // [Five, Five, Dead, Dead]
    [2001, 2001], // [Five, Five, One, Dead]
    [2002, 2002], // [Five, Five, One, One]
    [2004, 2004], // [Five, Five, Two, Dead]
    [2005, 2005], // [Five, Five, Two, One]
    [2008, 2008], // [Five, Five, Two, Two]
    [2012, 2012], // [Five, Five, OpenTwo, Dead]
    [2013, 2013], // [Five, Five, OpenTwo, One]
    [2016, 2016], // [Five, Five, OpenTwo, Two]
    [2024, 2024], // [Five, Five, OpenTwo, OpenTwo]
    [2010, 2010], // [Five, Five, Three, Dead]
    [2011, 2011], // [Five, Five, Three, One]
    [2014, 2014], // [Five, Five, Three, Two]
    [2022, 2022], // [Five, Five, Three, OpenTwo]
    [2020, 2020], // [Five, Five, Three, Three]
    [2045, 2045], // [Five, Five, OpenThree, Dead]
    [2046, 2046], // [Five, Five, OpenThree, One]
    [2049, 2049], // [Five, Five, OpenThree, Two]
    [2057, 2057], // [Five, Five, OpenThree, OpenTwo]
    [2055, 2055], // [Five, Five, OpenThree, Three]
    [2090, 2090], // [Five, Five, OpenThree, OpenThree]
    [2060, 2060], // [Five, Five, Four, Dead]
    [2061, 2061], // [Five, Five, Four, One]
    [2064, 2064], // [Five, Five, Four, Two]
    [2072, 2072], // [Five, Five, Four, OpenTwo]
    [2070, 2070], // [Five, Five, Four, Three]
    [2105, 2105], // [Five, Five, Four, OpenThree]
    [2120, 2120], // [Five, Five, Four, Four]
    [2300, 2300], // [Five, Five, OpenFour, Dead]
    [2301, 2301], // [Five, Five, OpenFour, One]
    [2304, 2304], // [Five, Five, OpenFour, Two]
    [2312, 2312], // [Five, Five, OpenFour, OpenTwo]
    [2310, 2310], // [Five, Five, OpenFour, Three]
    [2345, 2345], // [Five, Five, OpenFour, OpenThree]
    [2360, 2360], // [Five, Five, OpenFour, Four]
    [2600, 2600], // [Five, Five, OpenFour, OpenFour]
    [3000, 3000], // [Five, Five, Five, Dead]
    [3001, 3001], // [Five, Five, Five, One]
    [3004, 3004], // [Five, Five, Five, Two]
    [3012, 3012], // [Five, Five, Five, OpenTwo]
    [3010, 3010], // [Five, Five, Five, Three]
    [3045, 3045], // [Five, Five, Five, OpenThree]
    [3060, 3060], // [Five, Five, Five, Four]
    [3300, 3300], // [Five, Five, Five, OpenFour]
    [4000, 4000], // [Five, Five, Five, Five]
    [0, 0], // [Dead, Dead, Dead, Dead]
    [26, 29], // [One, Dead, Dead, Dead]
    [4, 8], // [One, One, Dead, Dead]
    [2, 5], // [One, One, One, Dead]
    [1, 3], // [One, One, One, One]
    [19, 39], // [Two, Dead, Dead, Dead]
    [2, 9], // [Two, One, Dead, Dead]
    [-8, -6], // [Two, One, One, Dead]
    [6, 8], // [Two, One, One, One]
    [-10, -9], // [Two, Two, Dead, Dead]
    [-18, -14], // [Two, Two, One, Dead]
    [13, 14], // [Two, Two, One, One]
    [29, 25], // [Two, Two, Two, Dead]
    [-13, -12], // [Two, Two, Two, One]
    [0, 12], // [Two, Two, Two, Two]
    [24, 32], // [OpenTwo, Dead, Dead, Dead]
    [-2, 3], // [OpenTwo, One, Dead, Dead]
    [2, -1], // [OpenTwo, One, One, Dead]
    [0, 1], // [OpenTwo, One, One, One]
    [13, 10], // [OpenTwo, Two, Dead, Dead]
    [12, 10], // [OpenTwo, Two, One, Dead]
    [16, 17], // [OpenTwo, Two, One, One]
    [27, 27], // [OpenTwo, Two, Two, Dead]
    [41, 43], // [OpenTwo, Two, Two, One]
    [42, 49], // [OpenTwo, Two, Two, Two]
    [-13, -4], // [OpenTwo, OpenTwo, Dead, Dead]
    [31, 26], // [OpenTwo, OpenTwo, One, Dead]
    [7, 9], // [OpenTwo, OpenTwo, One, One]
    [56, 48], // [OpenTwo, OpenTwo, Two, Dead]
    [37, 38], // [OpenTwo, OpenTwo, Two, One]
    [63, 72], // [OpenTwo, OpenTwo, Two, Two]
    [75, 60], // [OpenTwo, OpenTwo, OpenTwo, Dead]
    [-11, -6], // [OpenTwo, OpenTwo, OpenTwo, One]
    [44, 48], // [OpenTwo, OpenTwo, OpenTwo, Two]
    [19, -10], // [OpenTwo, OpenTwo, OpenTwo, OpenTwo]
    [-36, -13], // [Three, Dead, Dead, Dead]
    [-2, 5], // [Three, One, Dead, Dead]
    [25, 26], // [Three, One, One, Dead]
    [9, 11], // [Three, One, One, One]
    [-16, -22], // [Three, Two, Dead, Dead]
    [15, 19], // [Three, Two, One, Dead]
    [36, 36], // [Three, Two, One, One]
    [32, 35], // [Three, Two, Two, Dead]
    [76, 81], // [Three, Two, Two, One]
    [44, 44], // [Three, Two, Two, Two]
    [42, 38], // [Three, OpenTwo, Dead, Dead]
    [38, 36], // [Three, OpenTwo, One, Dead]
    [65, 59], // [Three, OpenTwo, One, One]
    [73, 62], // [Three, OpenTwo, Two, Dead]
    [124, 120], // [Three, OpenTwo, Two, One]
    [101, 122], // [Three, OpenTwo, Two, Two]
    [68, 53], // [Three, OpenTwo, OpenTwo, Dead]
    [73, 84], // [Three, OpenTwo, OpenTwo, One]
    [68, 88], // [Three, OpenTwo, OpenTwo, Two]
    [63, 52], // [Three, OpenTwo, OpenTwo, OpenTwo]
    [7, -10], // [Three, Three, Dead, Dead]
    [64, 59], // [Three, Three, One, Dead]
    [99, 91], // [Three, Three, One, One]
    [79, 70], // [Three, Three, Two, Dead]
    [124, 135], // [Three, Three, Two, One]
    [82, 96], // [Three, Three, Two, Two]
    [77, 74], // [Three, Three, OpenTwo, Dead]
    [134, 127], // [Three, Three, OpenTwo, One]
    [96, 105], // [Three, Three, OpenTwo, Two]
    [72, 59], // [Three, Three, OpenTwo, OpenTwo]
    [64, 46], // [Three, Three, Three, Dead]
    [61, 65], // [Three, Three, Three, One]
    [54, 63], // [Three, Three, Three, Two]
    [54, 51], // [Three, Three, Three, OpenTwo]
    [40, 42], // [Three, Three, Three, Three]
    [4, 15], // [OpenThree, Dead, Dead, Dead]
    [19, 22], // [OpenThree, One, Dead, Dead]
    [34, 38], // [OpenThree, One, One, Dead]
    [16, 23], // [OpenThree, One, One, One]
    [53, 35], // [OpenThree, Two, Dead, Dead]
    [97, 98], // [OpenThree, Two, One, Dead]
    [49, 50], // [OpenThree, Two, One, One]
    [101, 103], // [OpenThree, Two, Two, Dead]
    [86, 90], // [OpenThree, Two, Two, One]
    [89, 82], // [OpenThree, Two, Two, Two]
    [42, 50], // [OpenThree, OpenTwo, Dead, Dead]
    [93, 72], // [OpenThree, OpenTwo, One, Dead]
    [48, 52], // [OpenThree, OpenTwo, One, One]
    [163, 133], // [OpenThree, OpenTwo, Two, Dead]
    [78, 85], // [OpenThree, OpenTwo, Two, One]
    [111, 118], // [OpenThree, OpenTwo, Two, Two]
    [144, 93], // [OpenThree, OpenTwo, OpenTwo, Dead]
    [17, 16], // [OpenThree, OpenTwo, OpenTwo, One]
    [46, 58], // [OpenThree, OpenTwo, OpenTwo, Two]
    [52, 51], // [OpenThree, OpenTwo, OpenTwo, OpenTwo]
    [91, 53], // [OpenThree, Three, Dead, Dead]
    [95, 73], // [OpenThree, Three, One, Dead]
    [122, 109], // [OpenThree, Three, One, One]
    [110, 121], // [OpenThree, Three, Two, Dead]
    [169, 182], // [OpenThree, Three, Two, One]
    [147, 151], // [OpenThree, Three, Two, Two]
    [97, 105], // [OpenThree, Three, OpenTwo, Dead]
    [112, 103], // [OpenThree, Three, OpenTwo, One]
    [143, 156], // [OpenThree, Three, OpenTwo, Two]
    [69, 56], // [OpenThree, Three, OpenTwo, OpenTwo]
    [118, 62], // [OpenThree, Three, Three, Dead]
    [107, 120], // [OpenThree, Three, Three, One]
    [81, 69], // [OpenThree, Three, Three, Two]
    [54, 110], // [OpenThree, Three, Three, OpenTwo]
    [79, 78], // [OpenThree, Three, Three, Three]
    [168, 91], // [OpenThree, OpenThree, Dead, Dead]
    [120, 85], // [OpenThree, OpenThree, One, Dead]
    [-5, 53], // [OpenThree, OpenThree, One, One]
    [336, 336], // [OpenThree, OpenThree, Two, Dead]
    [107, 159], // [OpenThree, OpenThree, Two, One]
    [225, 221], // [OpenThree, OpenThree, Two, Two]
    [286, 348], // [OpenThree, OpenThree, OpenTwo, Dead]
    [67, 22], // [OpenThree, OpenThree, OpenTwo, One]
    [82, 71], // [OpenThree, OpenThree, OpenTwo, Two]
    [258, 323], // [OpenThree, OpenThree, OpenTwo, OpenTwo]
    [179, 189], // [OpenThree, OpenThree, Three, Dead]
    [308, 150], // [OpenThree, OpenThree, Three, One]
    [228, 6], // [OpenThree, OpenThree, Three, Two]
    [139, 143], // [OpenThree, OpenThree, Three, OpenTwo]
    [269, 230], // [OpenThree, OpenThree, Three, Three]
    [293, 259], // [OpenThree, OpenThree, OpenThree, Dead]
    [200, 218], // [OpenThree, OpenThree, OpenThree, One]
    [259, 216], // [OpenThree, OpenThree, OpenThree, Two]
    [268, 267], // [OpenThree, OpenThree, OpenThree, OpenTwo]
    [204, 220], // [OpenThree, OpenThree, OpenThree, Three]
    [300, 300], // [OpenThree, OpenThree, OpenThree, OpenThree]
    [-33, 23], // [Four, Dead, Dead, Dead]
    [70, 81], // [Four, One, Dead, Dead]
    [90, 101], // [Four, One, One, Dead]
    [51, 69], // [Four, One, One, One]
    [16, 17], // [Four, Two, Dead, Dead]
    [131, 152], // [Four, Two, One, Dead]
    [114, 123], // [Four, Two, One, One]
    [185, 194], // [Four, Two, Two, Dead]
    [168, 181], // [Four, Two, Two, One]
    [119, 141], // [Four, Two, Two, Two]
    [145, 121], // [Four, OpenTwo, Dead, Dead]
    [172, 167], // [Four, OpenTwo, One, Dead]
    [207, 190], // [Four, OpenTwo, One, One]
    [270, 296], // [Four, OpenTwo, Two, Dead]
    [215, 234], // [Four, OpenTwo, Two, One]
    [119, 189], // [Four, OpenTwo, Two, Two]
    [124, 147], // [Four, OpenTwo, OpenTwo, Dead]
    [253, 245], // [Four, OpenTwo, OpenTwo, One]
    [119, 133], // [Four, OpenTwo, OpenTwo, Two]
    [151, 179], // [Four, OpenTwo, OpenTwo, OpenTwo]
    [114, 97], // [Four, Three, Dead, Dead]
    [182, 162], // [Four, Three, One, Dead]
    [197, 216], // [Four, Three, One, One]
    [153, 144], // [Four, Three, Two, Dead]
    [247, 233], // [Four, Three, Two, One]
    [196, 248], // [Four, Three, Two, Two]
    [264, 251], // [Four, Three, OpenTwo, Dead]
    [144, 226], // [Four, Three, OpenTwo, One]
    [144, 178], // [Four, Three, OpenTwo, Two]
    [119, 170], // [Four, Three, OpenTwo, OpenTwo]
    [128, 119], // [Four, Three, Three, Dead]
    [110, 139], // [Four, Three, Three, One]
    [117, 148], // [Four, Three, Three, Two]
    [110, 119], // [Four, Three, Three, OpenTwo]
    [89, 97], // [Four, Three, Three, Three]
    [-1889, 218], // [Four, OpenThree, Dead, Dead]
    [-1776, 211], // [Four, OpenThree, One, Dead]
    [-1950, 210], // [Four, OpenThree, One, One]
    [-1265, 351], // [Four, OpenThree, Two, Dead]
    [-1491, 364], // [Four, OpenThree, Two, One]
    [-808, 532], // [Four, OpenThree, Two, Two]
    [-1199, 390], // [Four, OpenThree, OpenTwo, Dead]
    [-1648, 308], // [Four, OpenThree, OpenTwo, One]
    [-490, 332], // [Four, OpenThree, OpenTwo, Two]
    [254, 482], // [Four, OpenThree, OpenTwo, OpenTwo]
    [-971, 343], // [Four, OpenThree, Three, Dead]
    [44, 276], // [Four, OpenThree, Three, One]
    [176, 639], // [Four, OpenThree, Three, Two]
    [213, 557], // [Four, OpenThree, Three, OpenTwo]
    [426, 530], // [Four, OpenThree, Three, Three]
    [180, 109], // [Four, OpenThree, OpenThree, Dead]
    [-272, 629], // [Four, OpenThree, OpenThree, One]
    [455, 327], // [Four, OpenThree, OpenThree, Two]
    [462, 351], // [Four, OpenThree, OpenThree, OpenTwo]
    [460, 459], // [Four, OpenThree, OpenThree, Three]
    [495, 495], // [Four, OpenThree, OpenThree, OpenThree]
    [320, 222], // [Four, Four, Dead, Dead]
    [321, 326], // [Four, Four, One, Dead]
    [322, 313], // [Four, Four, One, One]
    [324, 344], // [Four, Four, Two, Dead]
    [325, 182], // [Four, Four, Two, One]
    [328, 503], // [Four, Four, Two, Two]
    [332, 346], // [Four, Four, OpenTwo, Dead]
    [333, 432], // [Four, Four, OpenTwo, One]
    [336, 150], // [Four, Four, OpenTwo, Two]
    [344, 344], // [Four, Four, OpenTwo, OpenTwo]
    [330, 307], // [Four, Four, Three, Dead]
    [331, 386], // [Four, Four, Three, One]
    [334, 469], // [Four, Four, Three, Two]
    [342, 355], // [Four, Four, Three, OpenTwo]
    [340, 340], // [Four, Four, Three, Three]
    [365, 365], // [Four, Four, OpenThree, Dead]
    [366, 391], // [Four, Four, OpenThree, One]
    [369, 517], // [Four, Four, OpenThree, Two]
    [377, 377], // [Four, Four, OpenThree, OpenTwo]
    [375, 375], // [Four, Four, OpenThree, Three]
    [410, 410], // [Four, Four, OpenThree, OpenThree]
    [380, 380], // [Four, Four, Four, Dead]
    [381, 381], // [Four, Four, Four, One]
    [384, 384], // [Four, Four, Four, Two]
    [392, 392], // [Four, Four, Four, OpenTwo]
    [390, 390], // [Four, Four, Four, Three]
    [425, 425], // [Four, Four, Four, OpenThree]
    [440, 440], // [Four, Four, Four, Four]
    [500, 220], // [OpenFour, Dead, Dead, Dead]
    [501, 292], // [OpenFour, One, Dead, Dead]
    [502, 295], // [OpenFour, One, One, Dead]
    [503, 261], // [OpenFour, One, One, One]
    [504, 303], // [OpenFour, Two, Dead, Dead]
    [505, 360], // [OpenFour, Two, One, Dead]
    [506, 284], // [OpenFour, Two, One, One]
    [508, 467], // [OpenFour, Two, Two, Dead]
    [509, 343], // [OpenFour, Two, Two, One]
    [512, 395], // [OpenFour, Two, Two, Two]
    [512, 295], // [OpenFour, OpenTwo, Dead, Dead]
    [513, 304], // [OpenFour, OpenTwo, One, Dead]
    [514, 276], // [OpenFour, OpenTwo, One, One]
    [516, 438], // [OpenFour, OpenTwo, Two, Dead]
    [517, 265], // [OpenFour, OpenTwo, Two, One]
    [520, 226], // [OpenFour, OpenTwo, Two, Two]
    [524, 388], // [OpenFour, OpenTwo, OpenTwo, Dead]
    [525, 179], // [OpenFour, OpenTwo, OpenTwo, One]
    [528, 410], // [OpenFour, OpenTwo, OpenTwo, Two]
    [536, 841], // [OpenFour, OpenTwo, OpenTwo, OpenTwo]
    [510, 312], // [OpenFour, Three, Dead, Dead]
    [511, 357], // [OpenFour, Three, One, Dead]
    [512, 301], // [OpenFour, Three, One, One]
    [514, 331], // [OpenFour, Three, Two, Dead]
    [515, 247], // [OpenFour, Three, Two, One]
    [518, 345], // [OpenFour, Three, Two, Two]
    [522, 365], // [OpenFour, Three, OpenTwo, Dead]
    [523, 362], // [OpenFour, Three, OpenTwo, One]
    [526, 519], // [OpenFour, Three, OpenTwo, Two]
    [534, 318], // [OpenFour, Three, OpenTwo, OpenTwo]
    [520, -52], // [OpenFour, Three, Three, Dead]
    [521, 663], // [OpenFour, Three, Three, One]
    [524, 410], // [OpenFour, Three, Three, Two]
    [532, 537], // [OpenFour, Three, Three, OpenTwo]
    [530, 674], // [OpenFour, Three, Three, Three]
    [545, 88], // [OpenFour, OpenThree, Dead, Dead]
    [546, -22], // [OpenFour, OpenThree, One, Dead]
    [547, -11], // [OpenFour, OpenThree, One, One]
    [549, 550], // [OpenFour, OpenThree, Two, Dead]
    [550, 174], // [OpenFour, OpenThree, Two, One]
    [553, 606], // [OpenFour, OpenThree, Two, Two]
    [557, 380], // [OpenFour, OpenThree, OpenTwo, Dead]
    [558, 168], // [OpenFour, OpenThree, OpenTwo, One]
    [561, 85], // [OpenFour, OpenThree, OpenTwo, Two]
    [569, 814], // [OpenFour, OpenThree, OpenTwo, OpenTwo]
    [555, 545], // [OpenFour, OpenThree, Three, Dead]
    [556, 352], // [OpenFour, OpenThree, Three, One]
    [559, 474], // [OpenFour, OpenThree, Three, Two]
    [567, 494], // [OpenFour, OpenThree, Three, OpenTwo]
    [565, 565], // [OpenFour, OpenThree, Three, Three]
    [590, 590], // [OpenFour, OpenThree, OpenThree, Dead]
    [591, 351], // [OpenFour, OpenThree, OpenThree, One]
    [594, 594], // [OpenFour, OpenThree, OpenThree, Two]
    [602, 602], // [OpenFour, OpenThree, OpenThree, OpenTwo]
    [600, 600], // [OpenFour, OpenThree, OpenThree, Three]
    [635, 635], // [OpenFour, OpenThree, OpenThree, OpenThree]
    [560, 30], // [OpenFour, Four, Dead, Dead]
    [561, 567], // [OpenFour, Four, One, Dead]
    [562, 452], // [OpenFour, Four, One, One]
    [564, 659], // [OpenFour, Four, Two, Dead]
    [565, 809], // [OpenFour, Four, Two, One]
    [568, 601], // [OpenFour, Four, Two, Two]
    [572, 681], // [OpenFour, Four, OpenTwo, Dead]
    [573, 449], // [OpenFour, Four, OpenTwo, One]
    [576, 576], // [OpenFour, Four, OpenTwo, Two]
    [584, 584], // [OpenFour, Four, OpenTwo, OpenTwo]
    [570, 668], // [OpenFour, Four, Three, Dead]
    [571, 133], // [OpenFour, Four, Three, One]
    [574, 574], // [OpenFour, Four, Three, Two]
    [582, 582], // [OpenFour, Four, Three, OpenTwo]
    [580, 580], // [OpenFour, Four, Three, Three]
    [605, 643], // [OpenFour, Four, OpenThree, Dead]
    [606, 606], // [OpenFour, Four, OpenThree, One]
    [609, 609], // [OpenFour, Four, OpenThree, Two]
    [617, 617], // [OpenFour, Four, OpenThree, OpenTwo]
    [615, 615], // [OpenFour, Four, OpenThree, Three]
    [650, 650], // [OpenFour, Four, OpenThree, OpenThree]
    [620, 620], // [OpenFour, Four, Four, Dead]
    [621, 621], // [OpenFour, Four, Four, One]
    [624, 624], // [OpenFour, Four, Four, Two]
    [632, 632], // [OpenFour, Four, Four, OpenTwo]
    [630, 630], // [OpenFour, Four, Four, Three]
    [665, 665], // [OpenFour, Four, Four, OpenThree]
    [680, 680], // [OpenFour, Four, Four, Four]
    [800, 513], // [OpenFour, OpenFour, Dead, Dead]
    [801, 801], // [OpenFour, OpenFour, One, Dead]
    [802, 802], // [OpenFour, OpenFour, One, One]
    [804, 804], // [OpenFour, OpenFour, Two, Dead]
    [805, 775], // [OpenFour, OpenFour, Two, One]
    [808, 808], // [OpenFour, OpenFour, Two, Two]
    [812, 812], // [OpenFour, OpenFour, OpenTwo, Dead]
    [813, 722], // [OpenFour, OpenFour, OpenTwo, One]
    [816, 514], // [OpenFour, OpenFour, OpenTwo, Two]
    [824, 824], // [OpenFour, OpenFour, OpenTwo, OpenTwo]
    [810, 848], // [OpenFour, OpenFour, Three, Dead]
    [811, 811], // [OpenFour, OpenFour, Three, One]
    [814, 814], // [OpenFour, OpenFour, Three, Two]
    [822, 822], // [OpenFour, OpenFour, Three, OpenTwo]
    [820, 820], // [OpenFour, OpenFour, Three, Three]
    [845, 338], // [OpenFour, OpenFour, OpenThree, Dead]
    [846, 846], // [OpenFour, OpenFour, OpenThree, One]
    [849, 849], // [OpenFour, OpenFour, OpenThree, Two]
    [857, 857], // [OpenFour, OpenFour, OpenThree, OpenTwo]
    [855, 855], // [OpenFour, OpenFour, OpenThree, Three]
    [890, 890], // [OpenFour, OpenFour, OpenThree, OpenThree]
    [860, 860], // [OpenFour, OpenFour, Four, Dead]
    [861, 861], // [OpenFour, OpenFour, Four, One]
    [864, 864], // [OpenFour, OpenFour, Four, Two]
    [872, 872], // [OpenFour, OpenFour, Four, OpenTwo]
    [870, 870], // [OpenFour, OpenFour, Four, Three]
    [905, 905], // [OpenFour, OpenFour, Four, OpenThree]
    [920, 920], // [OpenFour, OpenFour, Four, Four]
    [1100, 1100], // [OpenFour, OpenFour, OpenFour, Dead]
    [1101, 1101], // [OpenFour, OpenFour, OpenFour, One]
    [1104, 1104], // [OpenFour, OpenFour, OpenFour, Two]
    [1112, 1112], // [OpenFour, OpenFour, OpenFour, OpenTwo]
    [1110, 1110], // [OpenFour, OpenFour, OpenFour, Three]
    [1145, 1145], // [OpenFour, OpenFour, OpenFour, OpenThree]
    [1160, 1160], // [OpenFour, OpenFour, OpenFour, Four]
    [1400, 1400], // [OpenFour, OpenFour, OpenFour, OpenFour]
    [1000, 1000], // [Five, Dead, Dead, Dead]
    [1001, 1001], // [Five, One, Dead, Dead]
    [1002, 1002], // [Five, One, One, Dead]
    [1003, 1003], // [Five, One, One, One]
    [1004, 1004], // [Five, Two, Dead, Dead]
    [1005, 1005], // [Five, Two, One, Dead]
    [1006, 1006], // [Five, Two, One, One]
    [1008, 1008], // [Five, Two, Two, Dead]
    [1009, 1009], // [Five, Two, Two, One]
    [1012, 1012], // [Five, Two, Two, Two]
    [1012, 1012], // [Five, OpenTwo, Dead, Dead]
    [1013, 1013], // [Five, OpenTwo, One, Dead]
    [1014, 1014], // [Five, OpenTwo, One, One]
    [1016, 1016], // [Five, OpenTwo, Two, Dead]
    [1017, 1017], // [Five, OpenTwo, Two, One]
    [1020, 1020], // [Five, OpenTwo, Two, Two]
    [1024, 1024], // [Five, OpenTwo, OpenTwo, Dead]
    [1025, 1025], // [Five, OpenTwo, OpenTwo, One]
    [1028, 1028], // [Five, OpenTwo, OpenTwo, Two]
    [1036, 1036], // [Five, OpenTwo, OpenTwo, OpenTwo]
    [1010, 1010], // [Five, Three, Dead, Dead]
    [1011, 1011], // [Five, Three, One, Dead]
    [1012, 1012], // [Five, Three, One, One]
    [1014, 1014], // [Five, Three, Two, Dead]
    [1015, 1015], // [Five, Three, Two, One]
    [1018, 1018], // [Five, Three, Two, Two]
    [1022, 1022], // [Five, Three, OpenTwo, Dead]
    [1023, 1023], // [Five, Three, OpenTwo, One]
    [1026, 1026], // [Five, Three, OpenTwo, Two]
    [1034, 1034], // [Five, Three, OpenTwo, OpenTwo]
    [1020, 1020], // [Five, Three, Three, Dead]
    [1021, 1021], // [Five, Three, Three, One]
    [1024, 1024], // [Five, Three, Three, Two]
    [1032, 1032], // [Five, Three, Three, OpenTwo]
    [1030, 1030], // [Five, Three, Three, Three]
    [1045, 1045], // [Five, OpenThree, Dead, Dead]
    [1046, 1046], // [Five, OpenThree, One, Dead]
    [1047, 1047], // [Five, OpenThree, One, One]
    [1049, 1049], // [Five, OpenThree, Two, Dead]
    [1050, 1050], // [Five, OpenThree, Two, One]
    [1053, 1053], // [Five, OpenThree, Two, Two]
    [1057, 1057], // [Five, OpenThree, OpenTwo, Dead]
    [1058, 1058], // [Five, OpenThree, OpenTwo, One]
    [1061, 1061], // [Five, OpenThree, OpenTwo, Two]
    [1069, 1069], // [Five, OpenThree, OpenTwo, OpenTwo]
    [1055, 1055], // [Five, OpenThree, Three, Dead]
    [1056, 1056], // [Five, OpenThree, Three, One]
    [1059, 1059], // [Five, OpenThree, Three, Two]
    [1067, 1067], // [Five, OpenThree, Three, OpenTwo]
    [1065, 1065], // [Five, OpenThree, Three, Three]
    [1090, 1090], // [Five, OpenThree, OpenThree, Dead]
    [1091, 1091], // [Five, OpenThree, OpenThree, One]
    [1094, 1094], // [Five, OpenThree, OpenThree, Two]
    [1102, 1102], // [Five, OpenThree, OpenThree, OpenTwo]
    [1100, 1100], // [Five, OpenThree, OpenThree, Three]
    [1135, 1135], // [Five, OpenThree, OpenThree, OpenThree]
    [1060, 1060], // [Five, Four, Dead, Dead]
    [1061, 1061], // [Five, Four, One, Dead]
    [1062, 1062], // [Five, Four, One, One]
    [1064, 1064], // [Five, Four, Two, Dead]
    [1065, 1065], // [Five, Four, Two, One]
    [1068, 1068], // [Five, Four, Two, Two]
    [1072, 1072], // [Five, Four, OpenTwo, Dead]
    [1073, 1073], // [Five, Four, OpenTwo, One]
    [1076, 1076], // [Five, Four, OpenTwo, Two]
    [1084, 1084], // [Five, Four, OpenTwo, OpenTwo]
    [1070, 1070], // [Five, Four, Three, Dead]
    [1071, 1071], // [Five, Four, Three, One]
    [1074, 1074], // [Five, Four, Three, Two]
    [1082, 1082], // [Five, Four, Three, OpenTwo]
    [1080, 1080], // [Five, Four, Three, Three]
    [1105, 1105], // [Five, Four, OpenThree, Dead]
    [1106, 1106], // [Five, Four, OpenThree, One]
    [1109, 1109], // [Five, Four, OpenThree, Two]
    [1117, 1117], // [Five, Four, OpenThree, OpenTwo]
    [1115, 1115], // [Five, Four, OpenThree, Three]
    [1150, 1150], // [Five, Four, OpenThree, OpenThree]
    [1120, 1120], // [Five, Four, Four, Dead]
    [1121, 1121], // [Five, Four, Four, One]
    [1124, 1124], // [Five, Four, Four, Two]
    [1132, 1132], // [Five, Four, Four, OpenTwo]
    [1130, 1130], // [Five, Four, Four, Three]
    [1165, 1165], // [Five, Four, Four, OpenThree]
    [1180, 1180], // [Five, Four, Four, Four]
    [1300, 1300], // [Five, OpenFour, Dead, Dead]
    [1301, 1301], // [Five, OpenFour, One, Dead]
    [1302, 1302], // [Five, OpenFour, One, One]
    [1304, 1304], // [Five, OpenFour, Two, Dead]
    [1305, 1305], // [Five, OpenFour, Two, One]
    [1308, 1308], // [Five, OpenFour, Two, Two]
    [1312, 1312], // [Five, OpenFour, OpenTwo, Dead]
    [1313, 1313], // [Five, OpenFour, OpenTwo, One]
    [1316, 1316], // [Five, OpenFour, OpenTwo, Two]
    [1324, 1324], // [Five, OpenFour, OpenTwo, OpenTwo]
    [1310, 1310], // [Five, OpenFour, Three, Dead]
    [1311, 1311], // [Five, OpenFour, Three, One]
    [1314, 1314], // [Five, OpenFour, Three, Two]
    [1322, 1322], // [Five, OpenFour, Three, OpenTwo]
    [1320, 1320], // [Five, OpenFour, Three, Three]
    [1345, 1345], // [Five, OpenFour, OpenThree, Dead]
    [1346, 1346], // [Five, OpenFour, OpenThree, One]
    [1349, 1349], // [Five, OpenFour, OpenThree, Two]
    [1357, 1357], // [Five, OpenFour, OpenThree, OpenTwo]
    [1355, 1355], // [Five, OpenFour, OpenThree, Three]
    [1390, 1390], // [Five, OpenFour, OpenThree, OpenThree]
    [1360, 1360], // [Five, OpenFour, Four, Dead]
    [1361, 1361], // [Five, OpenFour, Four, One]
    [1364, 1364], // [Five, OpenFour, Four, Two]
    [1372, 1372], // [Five, OpenFour, Four, OpenTwo]
    [1370, 1370], // [Five, OpenFour, Four, Three]
    [1405, 1405], // [Five, OpenFour, Four, OpenThree]
    [1420, 1420], // [Five, OpenFour, Four, Four]
    [1600, 1600], // [Five, OpenFour, OpenFour, Dead]
    [1601, 1601], // [Five, OpenFour, OpenFour, One]
    [1604, 1604], // [Five, OpenFour, OpenFour, Two]
    [1612, 1612], // [Five, OpenFour, OpenFour, OpenTwo]
    [1610, 1610], // [Five, OpenFour, OpenFour, Three]
    [1645, 1645], // [Five, OpenFour, OpenFour, OpenThree]
    [1660, 1660], // [Five, OpenFour, OpenFour, Four]
    [1900, 1900], // [Five, OpenFour, OpenFour, OpenFour]
    [2000, 2000], // [Five, Five, Dead, Dead]
    [2001, 2001], // [Five, Five, One, Dead]
    [2002, 2002], // [Five, Five, One, One]
    [2004, 2004], // [Five, Five, Two, Dead]
    [2005, 2005], // [Five, Five, Two, One]
    [2008, 2008], // [Five, Five, Two, Two]
    [2012, 2012], // [Five, Five, OpenTwo, Dead]
    [2013, 2013], // [Five, Five, OpenTwo, One]
    [2016, 2016], // [Five, Five, OpenTwo, Two]
    [2024, 2024], // [Five, Five, OpenTwo, OpenTwo]
    [2010, 2010], // [Five, Five, Three, Dead]
    [2011, 2011], // [Five, Five, Three, One]
    [2014, 2014], // [Five, Five, Three, Two]
    [2022, 2022], // [Five, Five, Three, OpenTwo]
    [2020, 2020], // [Five, Five, Three, Three]
    [2045, 2045], // [Five, Five, OpenThree, Dead]
    [2046, 2046], // [Five, Five, OpenThree, One]
    [2049, 2049], // [Five, Five, OpenThree, Two]
    [2057, 2057], // [Five, Five, OpenThree, OpenTwo]
    [2055, 2055], // [Five, Five, OpenThree, Three]
    [2090, 2090], // [Five, Five, OpenThree, OpenThree]
    [2060, 2060], // [Five, Five, Four, Dead]
    [2061, 2061], // [Five, Five, Four, One]
    [2064, 2064], // [Five, Five, Four, Two]
    [2072, 2072], // [Five, Five, Four, OpenTwo]
    [2070, 2070], // [Five, Five, Four, Three]
    [2105, 2105], // [Five, Five, Four, OpenThree]
    [2120, 2120], // [Five, Five, Four, Four]
    [2300, 2300], // [Five, Five, OpenFour, Dead]
    [2301, 2301], // [Five, Five, OpenFour, One]
    [2304, 2304], // [Five, Five, OpenFour, Two]
    [2312, 2312], // [Five, Five, OpenFour, OpenTwo]
    [2310, 2310], // [Five, Five, OpenFour, Three]
    [2345, 2345], // [Five, Five, OpenFour, OpenThree]
    [2360, 2360], // [Five, Five, OpenFour, Four]
    [2600, 2600], // [Five, Five, OpenFour, OpenFour]
    [3000, 3000], // [Five, Five, Five, Dead]
    [3001, 3001], // [Five, Five, Five, One]
    [3004, 3004], // [Five, Five, Five, Two]
    [3012, 3012], // [Five, Five, Five, OpenTwo]
    [3010, 3010], // [Five, Five, Five, Three]
    [3045, 3045], // [Five, Five, Five, OpenThree]
    [3060, 3060], // [Five, Five, Five, Four]
    [3300, 3300], // [Five, Five, Five, OpenFour]
    [4000, 4000], // [Five, Five, Five, Five]
];

/// By `Gomoku::threat_mask` + 2^11 if White is to move, the masks whose correction is not zero.
#[rustfmt::skip]
pub const THREAT_VALUES: &[(u16, i16)] = &[
    (0b000000010000, -104),
    (0b000000010010, -336),
    (0b000001000000, -55),
    (0b000001010000, -7),
    (0b000001010010, -201),
    (0b000001011000, 8),
    (0b000001011010, 2),
    (0b000001100000, -302),
    (0b000001110000, -441),
    (0b000001111000, -12),
    (0b000100000000, -20),
    (0b000100010000, 118),
    (0b000100010010, -729),
    (0b000100010100, 308),
    (0b000100010110, -428),
    (0b000101000000, 155),
    (0b000101010000, 291),
    (0b000101010010, -1454),
    (0b000101010100, 372),
    (0b000101010110, -844),
    (0b000101011000, -693),
    (0b000101011010, 27),
    (0b000101011100, -470),
    (0b000101011110, -41),
    (0b000101100000, 129),
    (0b000101110000, 378),
    (0b000101110010, -296),
    (0b000101110100, 386),
    (0b000101110110, -303),
    (0b000101111000, -33),
    (0b000101111100, 6),
    (0b000101111110, -24),
    (0b000110000000, 88),
    (0b000110010000, -7),
    (0b000110010100, 23),
    (0b000111000000, 64),
    (0b000111010000, -5),
    (0b000111010100, 81),
    (0b000111110100, -18),
    (0b001101000000, 8),
    (0b001101010000, -11),
    (0b010000000000, 153),
    (0b010000010000, -10),
    (0b010000010010, -659),
    (0b010001000000, -36),
    (0b010001001010, 18),
    (0b010001010000, 144),
    (0b010001010010, -865),
    (0b010001011000, -312),
    (0b010001011010, 71),
    (0b010001100000, -1844),
    (0b010001110000, -1466),
    (0b010001110010, 2),
    (0b010001111000, -36),
    (0b010001111010, 5),
    (0b010010010100, -4),
    (0b010011010000, 7),
    (0b010011010100, -10),
    (0b010011110000, 24),
    (0b010100000000, 125),
    (0b010100010000, 79),
    (0b010100010010, -1657),
    (0b010100010100, 236),
    (0b010100010110, -1157),
    (0b010100011100, -59),
    (0b010100011110, -5),
    (0b010101000000, 52),
    (0b010101001000, 13),
    (0b010101001100, 8),
    (0b010101010000, 226),
    (0b010101010010, -1905),
    (0b010101010100, 250),
    (0b010101010110, -1738),
    (0b010101011000, -1435),
    (0b010101011010, 126),
    (0b010101011100, -929),
    (0b010101011110, 10),
    (0b010101100000, 82),
    (0b010101101000, 2),
    (0b010101101110, 29),
    (0b010101110000, 415),
    (0b010101110010, -832),
    (0b010101110100, 382),
    (0b010101110110, -490),
    (0b010101111000, -532),
    (0b010101111010, 3),
    (0b010101111100, -262),
    (0b010101111110, 13),
    (0b010110000000, 929),
    (0b010110010000, 11),
    (0b010110010010, -444),
    (0b010110010100, 145),
    (0b010110010110, -28),
    (0b010110011110, -2),
    (0b010111000000, 1302),
    (0b010111010000, 88),
    (0b010111010010, -1301),
    (0b010111010100, 135),
    (0b010111010110, -789),
    (0b010111011000, -818),
    (0b010111011010, 36),
    (0b010111011100, -452),
    (0b010111011110, 29),
    (0b010111100000, 1026),
    (0b010111110000, 205),
    (0b010111110010, -147),
    (0b010111110100, 113),
    (0b010111110110, -156),
    (0b010111111000, 8),
    (0b010111111100, 58),
    (0b011000000000, 727),
    (0b011000010000, 99),
    (0b011000010010, -259),
    (0b011001000000, 678),
    (0b011001010000, 358),
    (0b011001010010, -202),
    (0b011001011000, -147),
    (0b011001011010, 42),
    (0b011001100000, -508),
    (0b011001110000, -441),
    (0b011001110010, 2),
    (0b011001111000, 10),
    (0b011011010100, 14),
    (0b011011011100, 2),
    (0b011100000000, 520),
    (0b011100010000, 28),
    (0b011100010010, -464),
    (0b011100010100, 158),
    (0b011100010110, -241),
    (0b011101000000, 741),
    (0b011101001000, 9),
    (0b011101010000, 278),
    (0b011101010010, -1226),
    (0b011101010100, 147),
    (0b011101010110, -565),
    (0b011101011000, -678),
    (0b011101011010, 16),
    (0b011101011100, -150),
    (0b011101011110, 13),
    (0b011101100000, 534),
    (0b011101101100, 3),
    (0b011101110000, 407),
    (0b011101110010, -175),
    (0b011101110100, 287),
    (0b011101110110, 5),
    (0b011101111000, -114),
    (0b011101111010, 1),
    (0b011101111100, 6),
    (0b011101111110, 77),
    (0b011110000000, 18),
    (0b011110010000, 17),
    (0b011110010010, -135),
    (0b011110010100, 77),
    (0b011110010110, -77),
    (0b011111000000, 420),
    (0b011111010000, 18),
    (0b011111010010, -273),
    (0b011111010100, 199),
    (0b011111010110, -70),
    (0b011111011000, -229),
    (0b011111011010, 32),
    (0b011111011100, 13),
    (0b011111100000, 104),
    (0b011111110000, 226),
    (0b011111110100, 31),
    (0b011111110110, 1),
    (0b011111111000, -61),
    (0b011111111100, -93),
    (0b100000000000, -361),
    (0b100000010000, -338),
    (0b100001000000, -345),
    (0b100001010000, -121),
    (0b100001011000, -57),
    (0b100001110000, -39),
    (0b100001111000, -10),
    (0b100100000000, -139),
    (0b100100000100, 42),
    (0b100100010000, -171),
    (0b100100010100, -51),
    (0b100100011000, 2),
    (0b100101000000, -111),
    (0b100101000100, 215),
    (0b100101001100, 5),
    (0b100101010000, 14),
    (0b100101010100, 29),
    (0b100101011000, -661),
    (0b100101011100, -687),
    (0b100101100000, 32),
    (0b100101100100, 113),
    (0b100101110000, 161),
    (0b100101110100, 2),
    (0b100101111000, -62),
    (0b100101111100, -136),
    (0b100111010000, -20),
    (0b101111010000, -1),
    (0b110000000000, -164),
    (0b110000010000, -278),
    (0b110001000000, -274),
    (0b110001010000, -51),
    (0b110001011000, -139),
    (0b110001100000, -123),
    (0b110001110000, -221),
    (0b110001111000, -3),
    (0b110010000000, 36),
    (0b110010010100, 3),
    (0b110011000000, 60),
    (0b110011000100, 35),
    (0b110011010000, -1),
    (0b110011011000, 1),
    (0b110011110000, 12),
    (0b110100000000, -47),
    (0b110100000100, 275),
    (0b110100010000, -208),
    (0b110100010100, -136),
    (0b110101000000, -172),
    (0b110101000100, 657),
    (0b110101001000, 7),
    (0b110101010000, -48),
    (0b110101010100, -53),
    (0b110101011000, -1275),
    (0b110101011100, -1058),
    (0b110101100000, -148),
    (0b110101100100, 78),
    (0b110101110000, 132),
    (0b110101110100, -117),
    (0b110101111000, -67),
    (0b110101111100, -193),
    (0b110110000000, 1205),
    (0b110110000100, 19),
    (0b110110010000, -276),
    (0b110110010100, -154),
    (0b110111000000, 1189),
    (0b110111000100, 254),
    (0b110111001000, 13),
    (0b110111010000, -192),
    (0b110111010100, -277),
    (0b110111011000, -979),
    (0b110111011100, -271),
    (0b110111100000, 785),
    (0b110111100100, 128),
    (0b110111110000, -207),
    (0b110111110100, -390),
    (0b110111111000, 7),
    (0b110111111100, 10),
    (0b111000000000, 432),
    (0b111000010000, -177),
    (0b111001000000, 472),
    (0b111001010000, 255),
    (0b111001011000, -67),
    (0b111001100000, 18),
    (0b111001110000, -110),
    (0b111001111000, -11),
    (0b111010010000, 15),
    (0b111011010000, 12),
    (0b111011010100, 31),
    (0b111011011000, 2),
    (0b111011111000, -2),
    (0b111100000000, 248),
    (0b111100010000, -268),
    (0b111100010100, -217),
    (0b111100011100, 2),
    (0b111101000000, 425),
    (0b111101000100, 74),
    (0b111101010000, -97),
    (0b111101010100, -126),
    (0b111101011000, -257),
    (0b111101011100, -67),
    (0b111101100000, 201),
    (0b111101100100, 14),
    (0b111101101100, 8),
    (0b111101110000, 125),
    (0b111101110100, -110),
    (0b111101111000, -44),
    (0b111101111100, 28),
    (0b111110000000, 245),
    (0b111110010000, -139),
    (0b111110010100, 7),
    (0b111111000000, 533),
    (0b111111000100, 39),
    (0b111111010000, -242),
    (0b111111010100, -353),
    (0b111111011000, -69),
    (0b111111011100, -51),
    (0b111111100000, 56),
    (0b111111100100, 19),
    (0b111111110000, 24),
    (0b111111110100, -88),
    (0b111111111000, 5),
    (0b111111111100, -82),
];
